# SPDX-License-Identifier: GPL-2.0-or-later
# A network namespace with a tap device in it, the host side of a guest's
# wire: what the tap tests (tests/batch) and the tap benchmarks
# (linux/bench.sh) set up.  Sourced (sh or bash); it defines
#   netns_add NS           creates the namespace NS and sets $ns (the caller
#                          deletes it: ip netns del "$ns"); lo is up in it.
#                          Fails if the namespace cannot be created.
#   inns CMD...            runs CMD in the namespace $ns
#   netns_tap TAP ADDR MTU a tap device TAP in $ns, without IPv6, with the
#                          address ADDR/24 and that MTU, up.  Fails if the
#                          tap device cannot be created.
netns_add() {
    ns=$1
    ip netns add "$ns" || return 1
    inns ip link set lo up
}

inns() { ip netns exec "$ns" "$@"; }

netns_tap() {
    inns ip tuntap add dev "$1" mode tap || return 1
    inns sysctl -qw "net.ipv6.conf.$1.disable_ipv6=1" 2>/dev/null
    inns ip addr add "$2/24" dev "$1"
    inns ip link set "$1" mtu "$3" up
}
