"""Z3 proofs over the controller's arithmetic and transition relation.

The relations encode the controller of 1.32 (the release the model first followed) and, with
`job_relation.Controller.of`, what later releases change of it: the running pods kept as active
while the back-off defers creations (1.36+, unobserved) and the consistency store's wait for the
controller's own writes (1.36+). The systems as defined (`job_proofs.SYSTEM`, ...) are those of
`PROOF_RELEASE`; `suite.at_release` moves a proof to any of `PROOF_RELEASES` (every supported
release), where the relations are checked against the model by walks (tests/checkers/proofs) and
where its counterexample traces are replayed. `jobmodel prove` proves at `DEFAULT_PROOF_RELEASE` unless told otherwise.
"""

from jobmodel.features import NEWEST_RELEASE, SUPPORTED_MINORS, FeatureGates

PROOF_RELEASE = "1.32"
PROOF_GATES = FeatureGates.for_release(32)
PROOF_RELEASES = tuple(f"1.{minor}" for minor in SUPPORTED_MINORS)
DEFAULT_PROOF_RELEASE = NEWEST_RELEASE
