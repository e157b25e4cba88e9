// A derivative under a branch needs the derivative_uniformity opt-out.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps linear v0.xy
dcl_output o0.xyzw
dcl_temps 1
mov r0.xyzw, l(0, 0, 0, 0)
lt r0.w, v0.x, l(0.5)
if_nz r0.w
  deriv_rtx r0.x, v0.y
endif
mov o0.xyzw, r0.xyzw
ret
