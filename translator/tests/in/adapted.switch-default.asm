// A switch without `default` gains an empty one; consecutive labels share a clause.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_constantbuffer cb0[1], immediateIndexed
dcl_output o0.xyzw
dcl_temps 1
mov r0.x, l(7)
switch cb0[0].x
  case l(0)
  case l(1)
  mov r0.x, l(10)
  break
  case l(2)
  mov r0.x, l(20)
  break
endswitch
mov o0.xyzw, r0.xxxx
ret
