// ftoi/ftou: WGSL's i32()/u32() in the contract; exact saturates and sends NaN to 0.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
ftoi o0.xy, cb0[0].xyxx
ftou o0.zw, cb0[0].zzzw
ret
