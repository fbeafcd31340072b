#!/bin/sh
# The NIC options of the xbow binary: --help documents them, bad values are
# refused with a message and exit status 2.
set -u
xbow="${XBOW:-./xbow}"
fail() { echo "FAIL: nic_options.sh: $*"; exit 1; }
[ -x "$xbow" ] || fail "$xbow not built"
"$xbow" --help >help.out.$$ 2>&1 || fail "--help failed"
for opt in '--nic MODEL' '--net SPEC' '--pcap FILE' '--nic-dma=MODE'; do
    grep -q -- "$opt" help.out.$$ || { rm -f help.out.$$; fail "--help does not mention $opt"; }
done
rm -f help.out.$$
expect2() { # expect2 MESSAGE-PATTERN ARGS...: exit status 2 and the message on stderr
    pat=$1; shift
    msg=$("$xbow" "$@" 2>&1 >/dev/null); rc=$?
    [ $rc -eq 2 ] || fail "xbow $*: exit status $rc, want 2"
    echo "$msg" | grep -q -- "$pat" || fail "xbow $*: message \"$msg\" lacks \"$pat\""
}
expect2 'unknown model "tulip" (known: hamachi)' --nic tulip
expect2 'put --nic MODEL first' --net sink
expect2 'put --nic MODEL first' --pcap x.pcap
expect2 'want raw or per-word' --nic hamachi --nic-dma=fast
expect2 'at most 5 NICs' --nic hamachi --nic hamachi --nic hamachi --nic hamachi --nic hamachi --nic hamachi
expect2 'needs an argument' --nic
echo "PASS: nic_options.sh"
