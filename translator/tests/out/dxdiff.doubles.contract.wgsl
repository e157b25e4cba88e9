rejected: rejected at instruction 3: double precision has no WGSL type [dxdiff/doubles]
