// min/max: WGSL's builtins in the contract (NaN indeterminate); exact returns the other operand.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[2], immediateIndexed
dcl_output o0.xyzw
min o0.xy, cb0[0].xyxx, cb0[1].xyxx
max o0.zw, cb0[0].zzzw, cb0[1].zzzw
ret
