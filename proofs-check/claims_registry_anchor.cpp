// Keeps the proofs-check library non-empty before any claim exists.
namespace dpl::proofs { int claims_registry_anchor = 0; }
