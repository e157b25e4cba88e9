// Float and integer comparisons produce 0xFFFFFFFF/0 masks through `select`; `ne` is true on NaN.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[2], immediateIndexed
dcl_output o0.xyzw
eq o0.x, cb0[0].x, cb0[1].x
ne o0.y, cb0[0].y, cb0[1].y
ilt o0.z, cb0[0].z, cb0[1].z
uge o0.w, cb0[0].w, cb0[1].w
ret
