"""The benchmarks (each runnable as a script: `.venv/bin/python benchmarks/bench_NAME.py`)."""
