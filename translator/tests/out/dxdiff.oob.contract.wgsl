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
        let _e6 = t0_[w];
        return _e6;
    }
    return 0u;
}

fn u0_load(w_1: u32) -> u32 {
    if (w_1 < arrayLength((&u0_))) {
        let _e6 = atomicLoad((&u0_[w_1]));
        return _e6;
    }
    return 0u;
}

fn u0_store(w_2: u32, value: u32) {
    if (w_2 < arrayLength((&u0_))) {
        atomicStore((&u0_[w_2]), value);
    }
}

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var tmp1_: u32 = 0u;
    var r0w: u32;

    let _e1 = thread_id;
    let _e18 = (((vec4<u32>(_e1.x, _e1.y, _e1.z, 0u).x * 8u) + 0u) >> 2u);
    let _e19 = (vec4<u32>(_e1.x, _e1.y, _e1.z, 0u).x < ((arrayLength((&t0_)) * 4u) / 8u));
    let _e22 = t0_load((_e18 + 0u));
    let _e27 = t0_load((_e18 + 1u));
    r0x = select(0u, _e22, _e19);
    r0y = select(0u, _e27, _e19);
    let _e32 = thread_id;
    r0z = (vec4<u32>(_e32.x, _e32.y, _e32.z, 0u).x << (3u & 31u));
    let _e45 = r0z;
    let _e46 = r0x;
    let _e47 = r0y;
    let _e49 = (_e45 >> 2u);
    u0_store((_e49 + 0u), _e46);
    u0_store((_e49 + 1u), _e47);
    let _e58 = (64u >> 2u);
    if (_e58 < arrayLength((&u0_))) {
        let _e65 = atomicAdd((&u0_[_e58]), 1u);
        tmp1_ = _e65;
    }
    let _e66 = tmp1_;
    r0w = _e66;
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
