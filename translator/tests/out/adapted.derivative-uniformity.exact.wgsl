// adaptations: adapted/comparison-masks, adapted/hoisted-vars, adapted/typeless-registers
// dxdiff built-in translator, ps_5_0
// Derivatives under non-uniform control flow, as D3D11 allowed them.
diagnostic(off, derivative_uniformity);

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
    var r0x: u32;
    var r0y: u32;
    var r0z: u32;
    var r0w: u32;
    let tmp1 = 0x00000000u;
    let tmp2 = 0x00000000u;
    let tmp3 = 0x00000000u;
    let tmp4 = 0x00000000u;
    r0x = tmp1;
    r0y = tmp2;
    r0z = tmp3;
    r0w = tmp4;
    let tmp5 = select(0u, 0xffffffffu, d3d_fin(v[0].x) < d3d_fin(0x3f000000u));
    r0w = tmp5;
    if (r0w != 0u) {
        let tmp6 = d3d_fout(dpdx(d3d_fin(v[0].y)));
        r0x = tmp6;
    }
    let tmp7 = r0x;
    let tmp8 = r0y;
    let tmp9 = r0z;
    let tmp10 = r0w;
    o[0].x = tmp7;
    o[0].y = tmp8;
    o[0].z = tmp9;
    o[0].w = tmp10;
    return;
}

struct PsOut {
    @location(0) o0: vec4<f32>,
}

@fragment
fn main(@location(0) in0: vec4<f32>) -> PsOut {
    v[0] = bitcast<vec4<u32>>(in0);
    run();
    return PsOut(bitcast<vec4<f32>>(o[0]));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [],
  "inputs": [
    {
      "register": 0,
      "mask": 3,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "TEXCOORD"
    }
  ],
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
