// `-`/`|x|` are sign-bit operations for float consumers and two's complement for integer ones.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
add o0.x, -cb0[0].x, |cb0[0].y|
iadd o0.y, -cb0[0].z, l(1)
mov o0.z, -|cb0[0].w|
mov o0.w, cb0[0].x
ret
