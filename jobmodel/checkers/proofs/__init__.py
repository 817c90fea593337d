"""Z3 proofs over the controller's arithmetic and transition relation."""
