// adaptations: adapted/precise, adapted/typeless-registers, dxdiff/non-finite
// dxdiff built-in translator, vs_5_0

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
    let tmp1 = d3d_fout(d3d_fin(d3d_fout(d3d_fin(v[0].x) * d3d_fin(0x40000000u))) + d3d_fin(0xbf800000u));
    let tmp2 = d3d_fout(d3d_fin(d3d_fout(d3d_fin(v[0].y) * d3d_fin(0x40000000u))) + d3d_fin(0xbf800000u));
    let tmp3 = d3d_fout(d3d_fin(d3d_fout(d3d_fin(v[0].z) * d3d_fin(0x40000000u))) + d3d_fin(0x00000000u));
    let tmp4 = d3d_fout(d3d_fin(d3d_fout(d3d_fin(v[0].w) * d3d_fin(0x3f800000u))) + d3d_fin(0x00000000u));
    o[0].x = tmp1;
    o[0].y = tmp2;
    o[0].z = tmp3;
    o[0].w = tmp4;
    return;
}

struct VsOut {
    @invariant @builtin(position) o0: vec4<f32>,
}

@vertex
fn main(@location(0) in0: vec4<f32>) -> VsOut {
    v[0] = bitcast<vec4<u32>>(in0);
    run();
    return VsOut(bitcast<vec4<f32>>(o[0]));
}

/* manifest
{
  "stage": "vertex",
  "entry_point": "main",
  "bindings": [],
  "inputs": [
    {
      "register": 0,
      "mask": 15,
      "location": 0,
      "wgsl_type": "vec4<f32>",
      "semantic": "TEXCOORD"
    }
  ],
  "outputs": [
    {
      "register": 0,
      "mask": 15,
      "builtin": "position",
      "wgsl_type": "vec4<f32>",
      "semantic": "SV_Position"
    }
  ]
}
*/
