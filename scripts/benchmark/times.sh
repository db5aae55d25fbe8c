# Sourced by the benchmark scripts: the medians of whole-process runs that append
# `/usr/bin/time -f "%e %U %S %M" -a -o FILE` lines (wall s, user s, sys s, peak RSS KB).

# The median of the numbers on standard input, one per line (the lower middle of an even count).
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The load averages of the last 1, 5 and 15 minutes.
load() { cut -d' ' -f1-3 /proc/loadavg; }

# print_medians PREFIX NAME...: a line per NAME with the median wall, CPU (user + sys) and peak
# RSS of the runs in PREFIX-NAME, then every run's wall and CPU time.
print_medians() {
  local prefix=$1 name f
  shift
  printf '%-13s %8s %8s %8s\n' what "wall s" "cpu s" "RSS MB"
  for name in "$@"; do
    f="$prefix-$name"
    printf '%-13s %8s %8s %8.1f   (walls: %s; cpus: %s)\n' "$name" \
      "$(awk '{print $1}' "$f" | median)" "$(awk '{print $2 + $3}' "$f" | median)" \
      "$(awk '{print $4 / 1024}' "$f" | median)" \
      "$(awk '{printf "%s ", $1}' "$f")" "$(awk '{printf "%.2f ", $2 + $3}' "$f")"
  done
}
