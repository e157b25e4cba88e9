// Without refactoringAllowed every op is precise: ordinary math plus an invariant position.
vs_5_0
dcl_input v0.xyzw
dcl_output_siv o0.xyzw, position
mad o0.xyzw, v0.xyzw, l(2.0, 2.0, 2.0, 1.0), l(-1.0, -1.0, 0.0, 0.0)
ret
