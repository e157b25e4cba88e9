//! SFI0: required-feature flags (section 3.8). Not yet typed; see the following commit.
