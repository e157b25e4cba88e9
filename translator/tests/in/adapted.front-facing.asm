// SV_IsFrontFace becomes a 0xFFFFFFFF/0 mask from `front_facing`.
ps_5_0
dcl_globalFlags refactoringAllowed
dcl_input_ps_sgv v0.x, is_front_face
dcl_output o0.xyzw
movc o0.xyzw, v0.xxxx, l(1.0, 0, 0, 1.0), l(0, 1.0, 0, 1.0)
ret
