// The immediate constant buffer becomes a module `const` array with a bounds-guarded reader.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_immediateConstantBuffer { { 1.000000, 0, 0, 0},
                              { 2.000000, 0, 0, 0} }
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
mov o0.xyzw, icb[cb0[0].x + 0].xxxx
ret
