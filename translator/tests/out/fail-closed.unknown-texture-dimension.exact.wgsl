// adaptations: adapted/typeless-registers, dxdiff/non-finite
// dxdiff built-in translator, cs_5_0

@group(0) @binding(0) 
var u0_: texture_storage_2d_array<r32float,read_write>;
@group(0) @binding(1) 
var u1_: texture_storage_2d<rgba8unorm,write>;
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;
var<private> thread_id: vec3<u32>;
var<private> group_id: vec3<u32>;
var<private> thread_in_group: vec3<u32>;
var<private> thread_index: u32;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, (x & 2147483648u), ((x & 2139095040u) == 0u));
}

fn d3d_fin(x_1: u32) -> f32 {
    let _e1 = d3d_ftz(x_1);
    return bitcast<f32>(_e1);
}

fn d3d_isnan(x_2: u32) -> bool {
    return ((x_2 & 2147483647u) > 2139095040u);
}

fn d3d_fout(r: f32) -> u32 {
    let x_3 = bitcast<u32>(r);
    let _e2 = d3d_isnan(x_3);
    if _e2 {
        return 2143289344u;
    }
    let _e4 = d3d_ftz(x_3);
    return _e4;
}

fn run() {
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var r0w: u32;
    var r1x: u32;
    var r1y: u32;
    var r1z: u32;
    var r1w: u32;

    let _e2 = thread_id;
    let _e7 = vec4<u32>(_e2.x, _e2.y, _e2.z, 0u);
    let _e11 = vec2<u32>(_e7.x, _e7.y);
    let _e12 = textureDimensions(u0_);
    let _e19 = textureNumLayers(u0_);
    let _e24 = textureLoad(u0_, min(_e11, (_e12 - vec2(1u))), min(_e7.z, (_e19 - 1u)));
    let _e28 = select(vec4<u32>(0u, 0u, 0u, 1065353216u), bitcast<vec4<u32>>(_e24), (all((_e11 < _e12)) && (_e7.z < _e19)));
    r0x = _e28.x;
    r0y = _e28.y;
    r0z = _e28.z;
    r0w = _e28.w;
    let _e37 = (0u == 0u);
    let _e38 = textureDimensions(u0_);
    let _e40 = select(vec2(0u), _e38, _e37);
    let _e41 = textureNumLayers(u0_);
    let _e45 = vec4<u32>(_e40.x, _e40.y, select(0u, _e41, _e37), 1u);
    r1x = _e45.x;
    r1y = _e45.y;
    r1z = _e45.z;
    r1w = _e45.w;
    let _e54 = r0x;
    let _e55 = d3d_fin(_e54);
    let _e56 = d3d_fin(1065353216u);
    let _e58 = d3d_fout((_e55 + _e56));
    r0x = _e58;
    let _e59 = thread_id;
    let _e63 = vec4<u32>(_e59.x, _e59.y, _e59.z, 0u);
    let _e66 = vec2<u32>(_e63.x, _e63.y);
    let _e67 = textureDimensions(u0_);
    let _e74 = textureNumLayers(u0_);
    let _e79 = r0x;
    if (all((_e66 < _e67)) && (_e63.z < _e74)) {
        textureStore(u0_, _e66, _e63.z, bitcast<vec4<f32>>(vec4<u32>(_e79, _e79, _e79, _e79)));
    }
    let _e82 = r1x;
    let _e84 = d3d_fout(f32(_e82));
    let _e87 = r1y;
    let _e89 = d3d_fout(f32(_e87));
    let _e92 = r1z;
    let _e94 = d3d_fout(f32(_e92));
    let _e97 = r1w;
    let _e99 = d3d_fout(f32(_e97));
    r1x = select(_e84, 0u, (_e82 == 0u));
    r1y = select(_e89, 0u, (_e87 == 0u));
    r1z = select(_e94, 0u, (_e92 == 0u));
    r1w = select(_e99, 0u, (_e97 == 0u));
    let _e103 = thread_id;
    let _e109 = vec2<u32>(vec4<u32>(_e103.x, _e103.y, _e103.z, 0u).x, 0u);
    let _e110 = textureDimensions(u1_);
    let _e116 = r1x;
    let _e117 = r1y;
    let _e118 = r1z;
    let _e119 = r1w;
    let _e120 = vec4<u32>(_e116, _e117, _e118, _e119);
    if all((_e109 < _e110)) {
        textureStore(u1_, _e109, clamp(select(bitcast<vec4<f32>>(_e120), vec4(0f), ((_e120 & vec4(2147483647u)) > vec4(2139095040u))), vec4(0f), vec4(1f)));
    }
    return;
}

@compute @workgroup_size(4, 4, 1) 
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
    4,
    1
  ],
  "bindings": [
    {
      "kind": "uav",
      "register": 0,
      "group": 0,
      "binding": 0,
      "layout": "texture_storage_2d_array<r32float, read_write>"
    },
    {
      "kind": "uav",
      "register": 1,
      "group": 0,
      "binding": 1,
      "layout": "texture_storage_2d<rgba8unorm, write>",
      "texture1d": true
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
