//! STAT: instruction statistics (section 3.7). Not yet typed; see the following commit.
