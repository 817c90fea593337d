"""Z3 proofs over the controller's arithmetic and transition relation.

The relations encode the controller of 1.32 (the release the model first followed): the proofs
are of that release's model (`PROOF_RELEASE`), and its traces are replayed there. The single-sync
arithmetic is checked at 1.32 and 1.37; the relations miss one move of 1.36+, the consistency
store's wait for the controller's own writes (docs/proofs.md).
"""

from jobmodel.features import FeatureGates

PROOF_RELEASE = "1.32"
PROOF_GATES = FeatureGates.for_release(32)
