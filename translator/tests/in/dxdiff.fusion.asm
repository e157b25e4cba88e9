// mad and dot products: one expression (may fuse) in the contract; unfused, flushed steps in exact.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[3], immediateIndexed
dcl_output o0.xyzw
mad o0.x, cb0[0].x, cb0[1].x, cb0[2].x
dp3 o0.y, cb0[0].xyzx, cb0[1].xyzx
mov o0.zw, l(0, 0, 0, 0)
ret
