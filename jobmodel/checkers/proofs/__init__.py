"""Z3 proofs over the controller's arithmetic and transition relation.

The relations encode the controller of 1.32 (the release the model first followed): the proofs
are of that release's model (`PROOF_RELEASE`), and its traces are replayed there. Later releases
change what the relations would have to say (the consistency store of 1.36+ makes a sync wait for
its own writes; 1.36 keeps `active` during the pod-recreation back-off), docs/proofs.md.
"""

from jobmodel.features import FeatureGates

PROOF_RELEASE = "1.32"
PROOF_GATES = FeatureGates.for_release(32)
