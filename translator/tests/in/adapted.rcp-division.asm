// rcp lowers to a division (contract); exact flushes denormals in and out.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
rcp o0.xyzw, cb0[0].xyzw
ret
