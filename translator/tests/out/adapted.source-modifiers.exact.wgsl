// adaptations: adapted/typeless-registers, dxdiff/non-finite
// dxdiff built-in translator, ps_5_0

struct Cb0 {
    v: array<vec4<u32>, 1>,
}
@group(0) @binding(0) var<uniform> cb0: Cb0;
fn cb0_at(i: u32) -> vec4<u32> {
    if (i < 1u) {
        return cb0.v[i];
    }
    return vec4<u32>();
}
var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn d3d_ftz(x: u32) -> u32 {
    return select(x, x & 0x80000000u, (x & 0x7f800000u) == 0u);
}

fn d3d_isnan(x: u32) -> bool {
    return (x & 0x7fffffffu) > 0x7f800000u;
}

fn d3d_fin(x: u32) -> f32 {
    return bitcast<f32>(d3d_ftz(x));
}

fn d3d_fout(r: f32) -> u32 {
    let x = bitcast<u32>(r);
    if (d3d_isnan(x)) {
        return 0x7fc00000u;
    }
    return d3d_ftz(x);
}

fn run() {
    let tmp1 = d3d_fout(d3d_fin((cb0.v[0].x ^ 0x80000000u)) + d3d_fin((cb0.v[0].y & 0x7fffffffu)));
    o[0].x = tmp1;
    let tmp2 = ((0u - cb0.v[0].z) + 0x00000001u);
    o[0].y = tmp2;
    let tmp3 = d3d_ftz((cb0.v[0].w | 0x80000000u));
    o[0].z = tmp3;
    let tmp4 = cb0.v[0].x;
    o[0].w = tmp4;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main() -> PsOut {
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [
    {
      "kind": "cbuffer",
      "register": 0,
      "group": 0,
      "binding": 0,
      "layout": "uniform-vec4-array",
      "size_bytes": 16
    }
  ],
  "inputs": [],
  "outputs": [
    {
      "register": 0,
      "mask": 15,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "SV_Target"
    }
  ]
}
*/
