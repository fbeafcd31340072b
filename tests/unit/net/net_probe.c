/* SPDX-License-Identifier: GPL-2.0-or-later */
/* net_probe: a fake NIC on a real net_port, for batch tests of the host
 * backends against a real kernel (tests/batch/net_tap.sh).
 *
 *   net_probe [options] SPEC
 *     --mac MAC       the fake NIC's address (default 02:00:00:00:00:01)
 *     --ip A          its IPv4 address (default 10.99.0.2)
 *     --ready FILE    create FILE once the port is open
 *     --run CMD       run CMD (sh -c) once the port is open; fail if it fails
 *     --arp A         send an ARP request for A, wait for the answer, print
 *                     "arp A is-at MAC"
 *     --send A:PORT   send --count pattern UDP datagrams of --size bytes per
 *                     frame to A:PORT (to the MAC --arp found, else broadcast)
 *     --expect N      wait for N pattern UDP datagrams to --ip, print
 *                     "received G good, B bad"
 *     --pcap FILE     capture
 *     --timeout S     give up after S real seconds (default 10)
 * The virtual clock advances one poll period per real millisecond.  Exit
 * status 0 when every step succeeded. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "net/backend.h"

typedef struct probe {
    uint8_t mac[6];
    uint32_t ip, arp_for;
    bool arp_done;
    uint8_t arp_mac[6];
    unsigned good, bad;
} probe;

static bool probe_rx(void *o, const uint8_t *f, size_t len)
{
    probe *pr = o;
    uint16_t type;
    size_t l3 = net_eth_l3(f, len, &type);
    if (l3 && type == ETHERTYPE_ARP && len >= l3 + 28 && load_be(f + l3 + 6, 2) == 2 &&
        load_be(f + l3 + 14, 4) == pr->arp_for && !memcmp(f + l3 + 18, pr->mac, 6)) {
        memcpy(pr->arp_mac, f + l3 + 8, 6);
        pr->arp_done = true;
        return true;
    }
    net_ipv4 ip;
    net_udp u;
    uint32_t k;
    if (net_parse_udp_frame(f, len, &ip, &u) && ip.dst == pr->ip) {
        if (u.csum_ok && ip.csum_ok && net_payload_verify(u.data, u.data_len, &k))
            pr->good++;
        else
            pr->bad++;
    }
    return true;
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* One poll period of virtual time, timer by timer, then 1 ms of real time. */
static void step(sched *clk, net_port *p)
{
    uint64_t end = clk->now + p->poll_ticks;
    while (sched_next(clk) <= end) {
        clk->now = sched_next(clk);
        sched_run_due(clk);
    }
    clk->now = end;
    usleep(1000);
}

static int usage(void)
{
    fprintf(stderr,
            "usage: net_probe [--mac MAC] [--ip A] [--ready FILE] [--run CMD] [--arp A] "
            "[--send A:PORT --count N --size N] [--expect N] [--pcap FILE] [--timeout S] SPEC\n");
    return 2;
}

int main(int argc, char **argv)
{
    probe pr = {.mac = {2, 0, 0, 0, 0, 1}, .ip = 0x0a630002u};
    const char *ready = NULL, *run = NULL, *pcap = NULL, *send_to = NULL, *spec = NULL;
    bool want_arp = false;
    uint64_t count = 10, size = 200, expect = 0, timeout = 10;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        bool ok = true;
        if (!strcmp(a, "--mac") && v)
            ok = net_parse_mac(v, pr.mac);
        else if (!strcmp(a, "--ip") && v)
            ok = net_parse_ipv4(v, &pr.ip);
        else if (!strcmp(a, "--ready") && v)
            ready = v;
        else if (!strcmp(a, "--run") && v)
            run = v;
        else if (!strcmp(a, "--arp") && v)
            ok = want_arp = net_parse_ipv4(v, &pr.arp_for);
        else if (!strcmp(a, "--send") && v)
            send_to = v;
        else if (!strcmp(a, "--count") && v)
            ok = net_parse_u64(v, 1, 1000000, &count);
        else if (!strcmp(a, "--size") && v)
            ok = net_parse_u64(v, 60, 9018, &size);
        else if (!strcmp(a, "--expect") && v)
            ok = net_parse_u64(v, 1, 1000000, &expect);
        else if (!strcmp(a, "--pcap") && v)
            pcap = v;
        else if (!strcmp(a, "--timeout") && v)
            ok = net_parse_u64(v, 1, 3600, &timeout);
        else if (a[0] != '-' && !spec) {
            spec = a;
            continue;
        } else
            return usage();
        if (!ok)
            return usage();
        i++;
    }
    if (!spec)
        return usage();
    net_udp_spec us = {.src_ip = pr.ip, .sport = 6000};
    memcpy(us.src_mac, pr.mac, 6);
    memset(us.dst_mac, 0xff, 6);
    if (send_to) {
        char host[32];
        const char *c = strchr(send_to, ':');
        uint64_t port;
        if (!c || (size_t)(c - send_to) >= sizeof host)
            return usage();
        snprintf(host, sizeof host, "%.*s", (int)(c - send_to), send_to);
        if (!net_parse_ipv4(host, &us.dst_ip) || !net_parse_u64(c + 1, 1, 65535, &port))
            return usage();
        us.dport = (uint16_t)port;
    }

    sched clk;
    sched_init(&clk, 0);
    xerr err;
    net_port *p = net_port_open("probe0", spec, pcap, &clk, NULL, &err);
    if (!p) {
        fprintf(stderr, "net_probe: %s\n", err.msg);
        return 1;
    }
    net_port_attach(p, probe_rx, &pr);
    net_port_set_mac(p, pr.mac);
    int rc = 0;
    double deadline = now_s() + (double)timeout;
    if (ready) {
        FILE *f = fopen(ready, "w");
        if (f)
            fclose(f);
    }
    if (run && system(run) != 0) {
        fprintf(stderr, "net_probe: \"%s\" failed\n", run);
        rc = 1;
    }
    if (!rc && want_arp) {
        uint8_t f[60] = {0};
        memset(f, 0xff, 6);
        memcpy(f + 6, pr.mac, 6);
        store_be(f + 12, 2, ETHERTYPE_ARP);
        store_be(f + 14, 2, 1);
        store_be(f + 16, 2, ETHERTYPE_IPV4);
        f[18] = 6;
        f[19] = 4;
        store_be(f + 20, 2, 1);
        memcpy(f + 22, pr.mac, 6);
        store_be(f + 28, 4, pr.ip);
        store_be(f + 38, 4, pr.arp_for);
        /* The namespace's interface may come up a moment after we start:
         * ask again every half second, as a real host would. */
        double again = 0;
        while (!pr.arp_done && now_s() < deadline) {
            if (now_s() >= again) {
                net_port_send(p, f, sizeof f);
                again = now_s() + 0.5;
            }
            step(&clk, p);
        }
        if (pr.arp_done) {
            char m[18], a[16];
            net_fmt_mac(m, pr.arp_mac);
            net_fmt_ipv4(a, pr.arp_for);
            printf("arp %s is-at %s\n", a, m);
            memcpy(us.dst_mac, pr.arp_mac, 6);
        } else {
            fprintf(stderr, "net_probe: no ARP answer\n");
            rc = 1;
        }
    }
    if (!rc && send_to) {
        uint8_t *f = malloc(size);
        for (uint32_t k = 0; k < count; k++) {
            net_build_udp(f, size, &us, k);
            net_port_send(p, f, size);
        }
        free(f);
        net_port_tx_drain(p); /* what the host refused is counted */
        printf("sent %llu, %llu dropped\n", (unsigned long long)count,
               (unsigned long long)p->stats.tx_dropped);
        if (p->stats.tx_dropped)
            rc = 1;
    }
    if (!rc && expect) {
        while (pr.good + pr.bad < expect && now_s() < deadline)
            step(&clk, p);
        printf("received %u good, %u bad\n", pr.good, pr.bad);
        if (pr.good != expect || pr.bad)
            rc = 1;
    }
    strbuf sb;
    sb_init(&sb);
    net_port_show(p, &sb);
    fputs(sb.s, stdout);
    sb_free(&sb);
    net_port_close(p);
    return rc;
}
