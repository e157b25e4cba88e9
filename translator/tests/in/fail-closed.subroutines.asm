// Subroutines are rejected.
ps_4_0
dcl_output o0.xyzw
call l0
ret
label l0
mov o0.xyzw, l(0, 0, 0, 0)
ret
