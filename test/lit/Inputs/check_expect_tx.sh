# check_expect_tx.sh PTX BYTES BOXES: every mbarrier expect_tx in PTX
# announces BYTES, and the file has BOXES TMA loads (completing on an
# mbarrier by bytes) per expect_tx site. Fails with a message otherwise.
ptx=$1 bytes=$2 boxes=$3
sites=$(grep -c 'mbarrier.arrive.expect_tx' "$ptx")
loads=$(grep -c 'mbarrier::complete_tx::bytes' "$ptx")
other=$(grep 'mbarrier.arrive.expect_tx' "$ptx" | grep -vc ", $bytes;")
if [ "$sites" -lt 1 ] || [ "$other" -ne 0 ] || [ "$loads" -ne $((sites * boxes)) ]; then
  echo "$ptx: $sites expect_tx sites ($other not of $bytes bytes), $loads TMA loads; expected $boxes per site" >&2
  exit 1
fi
