"""Sub-commands of the `jobmodel` command line (the imperative shell: files, terminal)."""
