// Double precision has no WGSL type: the contract profile rejects it, the exact profile computes it on u32 pairs.
ps_5_0
dcl_globalFlags refactoringAllowed | enableDoublePrecisionFloatOps
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
dadd o0.xy, cb0[0].xyxy, cb0[0].zwzw
mov o0.zw, l(0, 0, 0, 0)
ret
