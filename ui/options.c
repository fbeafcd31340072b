/* Options that belong to areas beyond the core (NICs, networking, PCI test
 * device).  Each area adds its options here and to --help in main.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/ui.h"

/* "--name VALUE" or "--name=VALUE": returns the value (advancing *i over a
 * separate one), NULL if argv[*i] is not this option; exits 2 when the value
 * is missing. */
static const char *opt_value(const char *name, int argc, char **argv, int *i)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=')
        return a + n + 1;
    if (a[n] != 0)
        return NULL;
    if (*i + 1 >= argc) {
        fprintf(stderr, "xbow: option %s needs an argument (see xbow --help)\n", name);
        exit(2);
    }
    return argv[++*i];
}

static void copy_value(char *dst, size_t size, const char *opt, const char *v)
{
    if (strlen(v) >= size) {
        fprintf(stderr, "xbow: %s: \"%s\" is too long (at most %zu characters)\n", opt, v,
                size - 1);
        exit(2);
    }
    memcpy(dst, v, strlen(v) + 1);
}

/* --mac MAC for the preceding --nic: six hex bytes separated by ':' or '-',
 * a unicast address other than all zeros, at most once per NIC. */
static void mac_option(nic_config *nc, unsigned k, const char *v)
{
    uint8_t mac[6];
    char err[1024];
    if (machine_parse_station_mac(v, mac, err, sizeof err)) {
        fprintf(stderr, "xbow: --mac: %s\n", err);
        exit(2);
    }
    if (nc->mac_set) {
        const uint8_t *m = nc->mac;
        fprintf(stderr,
                "xbow: --mac: NIC %u (--nic %s) already has --mac "
                "%02x:%02x:%02x:%02x:%02x:%02x: one --mac per --nic\n",
                k, nc->model, m[0], m[1], m[2], m[3], m[4], m[5]);
        exit(2);
    }
    memcpy(nc->mac, mac, 6);
    nc->mac_set = true;
}

/* --nic MODEL (repeatable), --net SPEC, --pcap FILE and --mac MAC (for the
 * preceding --nic), --nic-dma=raw|per-word. */
static int nic_option(ui_options *o, int argc, char **argv, int *i)
{
    machine_config *c = &o->cfg;
    const char *v;
    if ((v = opt_value("--nic-dma", argc, argv, i))) {
        if (!strcmp(v, "raw"))
            c->nic_dma_per_word = 0;
        else if (!strcmp(v, "per-word"))
            c->nic_dma_per_word = 1;
        else {
            fprintf(stderr, "xbow: --nic-dma: want raw or per-word, not \"%s\"\n", v);
            exit(2);
        }
        return 1;
    }
    if ((v = opt_value("--nic", argc, argv, i))) {
        if (!strcmp(v, "none")) {
            o->no_nic = true;
            return 1;
        }
        if (!machine_nic_model_known(v)) {
            fprintf(stderr, "xbow: --nic: unknown model \"%s\" (known: %s)\n", v,
                    machine_nic_models());
            exit(2);
        }
        if (c->nnics >= MAX_NICS) {
            fprintf(stderr, "xbow: --nic: at most %d NICs (PCI slots 3 to 7)\n", MAX_NICS);
            exit(2);
        }
        nic_config *nc = &c->nics[c->nnics++];
        memset(nc, 0, sizeof *nc);
        copy_value(nc->model, sizeof nc->model, "--nic", v);
        return 1;
    }
    static const char *const per_nic[] = {"--net", "--pcap", "--mac"};
    unsigned which = 0;
    while (which < 3 && !(v = opt_value(per_nic[which], argc, argv, i)))
        which++;
    if (which == 3)
        return 0;
    const char *opt = per_nic[which];
    if (!c->nnics) {
        fprintf(stderr, "xbow: %s applies to the NIC given before it: put --nic MODEL first\n",
                opt);
        exit(2);
    }
    nic_config *nc = &c->nics[c->nnics - 1];
    if (which == 0)
        copy_value(nc->net, sizeof nc->net, opt, v);
    else if (which == 1)
        copy_value(nc->pcap, sizeof nc->pcap, opt, v);
    else
        mac_option(nc, c->nnics, v);
    return 1;
}

int ui_parse_extra_option(ui_options *o, int argc, char **argv, int *i)
{
    if (nic_option(o, argc, argv, i))
        return 1;
    if (!strcmp(argv[*i], "--testdev")) {
        o->cfg.test_device = true;
        return 1;
    }
    return 0;
}

/* Every device with a "station" view (the NICs): its line. */
void ui_show_nics(machine *m, FILE *f)
{
    strbuf b;
    sb_init(&b);
    for (device *d = m->devices; d; d = d->next) {
        const dev_view *v = dev_view_find(d, "station");
        if (!v)
            continue;
        sb_reset(&b);
        v->show(d, "", NULL, &b);
        fprintf(f, "xbow: %s", b.s ? b.s : "\n");
    }
    sb_free(&b);
}

void ui_default_machine(ui_options *o)
{
    if (o->cfg.nnics || o->no_nic)
        return;
    nic_config *nc = &o->cfg.nics[o->cfg.nnics++];
    memset(nc, 0, sizeof *nc);
    snprintf(nc->model, sizeof nc->model, "tigon2");
    snprintf(nc->net, sizeof nc->net, "echo");
}

/* The demo guest: next to the binary in a build tree, else where `make
 * install` put the examples. */
const char *ui_default_guest(char *buf, size_t len)
{
    static const char rel[] = "examples/tigon/tigon_echo.elf";
    char exe[2048];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            snprintf(buf, len, "%s/%s", exe, rel);
            if (access(buf, R_OK) == 0)
                return buf;
        }
    }
    snprintf(buf, len, "%s/%s", XBOW_PKGDATADIR, rel);
    return access(buf, R_OK) == 0 ? buf : NULL;
}
