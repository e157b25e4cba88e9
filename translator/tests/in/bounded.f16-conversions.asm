// f32tof16/f16tof32: pack2x16float in the contract; round-toward-zero bit arithmetic in exact.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
f32tof16 o0.xy, cb0[0].xyxx
f16tof32 o0.zw, cb0[0].zzzw
ret
