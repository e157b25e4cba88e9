// A compute program written for dxdiff: each group of 64 invocations sums its slice of a raw
// buffer through group-shared memory, then one invocation adds the total to an output word.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_raw u0
dcl_uav_raw u1
dcl_input vThreadIDInGroupFlattened
dcl_input vThreadID.x
dcl_temps 2
dcl_tgsm_raw g0, 256
dcl_thread_group 64, 1, 1
ishl r0.x, vThreadID.x, l(2)
ld_raw r0.y, r0.x, u0.xxxx
ishl r0.z, vThreadIDInGroupFlattened.x, l(2)
store_raw g0.x, r0.z, r0.y
sync_g_t
ult r1.x, vThreadIDInGroupFlattened.x, l(32)
if_nz r1.x
  iadd r1.y, r0.z, l(128)
  ld_raw r1.z, r1.y, g0.xxxx
  iadd r0.y, r0.y, r1.z
endif 
ieq r1.w, vThreadIDInGroupFlattened.x, l(0)
if_nz r1.w
  atomic_iadd u1, l(0), r0.y
endif 
ret 
