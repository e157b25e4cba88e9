// adaptations: adapted/typeless-registers
// dxdiff built-in translator, cs_5_0

@group(0) @binding(0) var<storage, read> t0: array<u32>;
fn t0_load(w: u32) -> u32 {
    if (w < arrayLength(&t0)) {
        return t0[w];
    }
    return 0u;
}
@group(0) @binding(1) var<storage, read_write> u0: array<atomic<u32>>;
fn u0_load(w: u32) -> u32 {
    if (w < arrayLength(&u0)) {
        return atomicLoad(&u0[w]);
    }
    return 0u;
}
fn u0_store(w: u32, value: u32) {
    if (w < arrayLength(&u0)) {
        atomicStore(&u0[w], value);
    }
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;
var<private> thread_id: vec3<u32>;
var<private> group_id: vec3<u32>;
var<private> thread_in_group: vec3<u32>;
var<private> thread_index: u32;

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var r0w: u32;
    let tmp1 = (vec4<u32>(thread_id, 0u).x * 8u + 0x00000000u) >> 2u;
    let tmp2 = select(0u, t0_load(tmp1 + 0u), vec4<u32>(thread_id, 0u).x < ((arrayLength(&t0) * 4u) / 8u));
    let tmp3 = select(0u, t0_load(tmp1 + 1u), vec4<u32>(thread_id, 0u).x < ((arrayLength(&t0) * 4u) / 8u));
    r0x = tmp2;
    r0y = tmp3;
    let tmp4 = (vec4<u32>(thread_id, 0u).x << (0x00000003u & 31u));
    r0z = tmp4;
    let tmp5 = r0x;
    let tmp6 = r0y;
    let tmp7 = r0z >> 2u;
    if (true) {
        u0_store(tmp7 + 0u, tmp5);
        u0_store(tmp7 + 1u, tmp6);
    }
    let tmp8 = 0x00000001u;
    let tmp9 = 0u;
    let tmp10 = 0x00000040u >> 2u;
    var tmp11 = 0u;
    if (true && tmp10 < arrayLength(&u0)) {
        tmp11 = atomicAdd(&u0[tmp10], tmp8);
    }
    let tmp12 = tmp11;
    r0w = tmp12;
    return;
}

@compute @workgroup_size(4, 1, 1)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>, @builtin(local_invocation_index) lix: u32) {
    thread_id = gid;
    group_id = wid;
    thread_in_group = lid;
    thread_index = lix;
    run();
}

/* manifest
{
  "stage": "compute",
  "entry_point": "main",
  "workgroup_size": [
    4,
    1,
    1
  ],
  "bindings": [
    {
      "kind": "srv",
      "register": 0,
      "group": 0,
      "binding": 0,
      "layout": "storage-u32-array",
      "stride": 8
    },
    {
      "kind": "uav",
      "register": 0,
      "group": 0,
      "binding": 1,
      "layout": "storage-atomic-u32-array"
    }
  ],
  "inputs": [
    {
      "register": null,
      "mask": 7,
      "builtin": "global_invocation_id",
      "wgsl_type": "vec3<u32>",
      "semantic": "SV_DispatchThreadID"
    },
    {
      "register": null,
      "mask": 7,
      "builtin": "workgroup_id",
      "wgsl_type": "vec3<u32>",
      "semantic": "SV_GroupID"
    },
    {
      "register": null,
      "mask": 7,
      "builtin": "local_invocation_id",
      "wgsl_type": "vec3<u32>",
      "semantic": "SV_GroupThreadID"
    },
    {
      "register": null,
      "mask": 1,
      "builtin": "local_invocation_index",
      "wgsl_type": "u32",
      "semantic": "SV_GroupIndex"
    }
  ],
  "outputs": []
}
*/
