// `mov_sat` clamps the raw bits as a float; exact sends NaN to 0.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
mov_sat o0.xyzw, cb0[0].xyzw
ret
