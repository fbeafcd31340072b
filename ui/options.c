/* Options that belong to areas beyond the core (NICs, networking, PCI test
 * device).  Each area adds its options here and to --help in main.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/nic.h"
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

/* --nic MODEL (repeatable), --net SPEC and --pcap FILE (for the preceding
 * --nic), --nic-dma=raw|per-word. */
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
        if (!nic_model_find(v)) {
            fprintf(stderr, "xbow: --nic: unknown model \"%s\" (known: %s)\n", v,
                    nic_model_list());
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
    bool net = false;
    if ((v = opt_value("--net", argc, argv, i)))
        net = true;
    else if (!(v = opt_value("--pcap", argc, argv, i)))
        return 0;
    const char *opt = net ? "--net" : "--pcap";
    if (!c->nnics) {
        fprintf(stderr, "xbow: %s applies to the NIC given before it: put --nic MODEL first\n",
                opt);
        exit(2);
    }
    nic_config *nc = &c->nics[c->nnics - 1];
    if (net)
        copy_value(nc->net, sizeof nc->net, opt, v);
    else
        copy_value(nc->pcap, sizeof nc->pcap, opt, v);
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
