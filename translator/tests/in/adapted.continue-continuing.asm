// Loops with break and continue.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
dcl_temps 2
mov r0.xy, l(0, 0, 0, 0)
loop
  uge r1.x, r0.x, cb0[0].x
  breakc_nz r1.x
  iadd r0.x, r0.x, l(1)
  and r1.y, r0.x, l(1)
  continuec_nz r1.y
  iadd r0.y, r0.y, r0.x
endloop
mov o0.xyzw, r0.xyyy
ret
