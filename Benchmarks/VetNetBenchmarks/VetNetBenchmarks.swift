// benchmarks
