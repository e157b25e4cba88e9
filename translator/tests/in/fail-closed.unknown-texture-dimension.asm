// Typed UAV textures: the contract profile fails closed on them (the seed: non-buffer UAV
// shapes fail closed); the exact profile binds a loaded one as a read_write r32 storage
// texture, tests every coordinate, and reads (0, 0, 0, 1) outside it.
cs_5_0
dcl_globalFlags refactoringAllowed
dcl_uav_typed_texture2darray (float,float,float,float) u0
dcl_uav_typed_texture1d (unorm,unorm,unorm,unorm) u1
dcl_input vThreadID.xyz
dcl_temps 2
dcl_thread_group 4, 4, 1
ld_uav_typed r0.xyzw, vThreadID.xyzx, u0.xyzw
resinfo_uint r1.xyzw, l(0), u0.xyzw
add r0.x, r0.x, l(1.0)
store_uav_typed u0.xyzw, vThreadID.xyzx, r0.xxxx
utof r1.xyzw, r1.xyzw
store_uav_typed u1.xyzw, vThreadID.xxxx, r1.xyzw
ret
