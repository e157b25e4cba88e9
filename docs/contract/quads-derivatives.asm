ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
and r0.xyzw, v0.xyzw, l(7, 7, 7, 7)
utof r0.xyzw, r0.xyzw
deriv_rty_fine o0.xyzw, r0.xyzw
ret
