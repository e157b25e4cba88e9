// udiv: quotient and remainder are 0xFFFFFFFF when the divisor is 0.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
udiv o0.x, o0.y, cb0[0].x, cb0[0].y
mov o0.zw, l(0, 0, 0, 0)
ret
