// Buffer reads, writes and atomics are guarded so out-of-range accesses read 0 or are dropped.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_resource_structured t0, 8
dcl_uav_raw u0
dcl_input vThreadID.x
dcl_temps 1
dcl_thread_group 4, 1, 1
ld_structured r0.xy, vThreadID.x, l(0), t0.xyxx
ishl r0.z, vThreadID.x, l(3)
store_raw u0.xy, r0.z, r0.xyxx
imm_atomic_iadd r0.w, u0, l(64), l(1)
ret
