//! RDEF: resource reflection (section 3). Not yet typed; see the following commit.
