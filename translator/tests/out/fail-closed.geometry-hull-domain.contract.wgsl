rejected: rejected: Geometry programs have no WGSL stage [fail-closed/geometry-hull-domain]
