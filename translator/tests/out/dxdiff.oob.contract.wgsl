// adaptations: adapted/typeless-registers
// dxdiff built-in translator, cs_5_0

@group(0) @binding(0) 
var<storage> t0_: array<u32>;
@group(0) @binding(1) 
var<storage, read_write> u0_: array<atomic<u32>>;
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;
var<private> thread_id: vec3<u32>;
var<private> group_id: vec3<u32>;
var<private> thread_in_group: vec3<u32>;
var<private> thread_index: u32;

fn t0_load(w: u32) -> u32 {
    if (w < arrayLength((&t0_))) {
        let _e7 = t0_[w];
        return _e7;
    }
    return 0u;
}

fn u0_store(w_1: u32, value: u32) {
    if (w_1 < arrayLength((&u0_))) {
        atomicStore((&u0_[w_1]), value);
    }
}

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var tmp1_: u32 = 0u;
    var r0w: u32;

    let _e1 = thread_id;
    let _e17 = (((vec4<u32>(_e1.x, _e1.y, _e1.z, 0u).x * 8u) + 0u) >> 2u);
    let _e18 = (vec4<u32>(_e1.x, _e1.y, _e1.z, 0u).x < ((arrayLength((&t0_)) * 4u) / 8u));
    let _e20 = t0_load((_e17 + 0u));
    let _e24 = t0_load((_e17 + 1u));
    r0x = select(0u, _e20, _e18);
    r0y = select(0u, _e24, _e18);
    let _e28 = thread_id;
    r0z = (vec4<u32>(_e28.x, _e28.y, _e28.z, 0u).x << (3u & 31u));
    let _e39 = r0z;
    let _e40 = r0x;
    let _e41 = r0y;
    let _e42 = (_e39 >> 2u);
    u0_store((_e42 + 0u), _e40);
    u0_store((_e42 + 1u), _e41);
    let _e46 = (64u >> 2u);
    if (_e46 < arrayLength((&u0_))) {
        let _e52 = atomicAdd((&u0_[_e46]), 1u);
        tmp1_ = _e52;
    }
    let _e53 = tmp1_;
    r0w = _e53;
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
