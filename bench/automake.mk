# Benchmarks: each prints figures; none decides pass or fail.
