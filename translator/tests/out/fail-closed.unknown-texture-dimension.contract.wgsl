rejected: rejected at instruction 1: resource dimension texture2darray of a typed UAV texture (the exact profile lowers it) [fail-closed/unknown-texture-dimension]
