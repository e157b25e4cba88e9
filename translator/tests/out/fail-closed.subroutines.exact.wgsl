// adaptations: adapted/precise, adapted/typeless-registers
// dxdiff built-in translator, ps_4_0

struct PsOut {
    @location(0) o0_: vec4<f32>,
}

var<private> v: array<vec4<u32>, 1>;
var<private> o: array<vec4<u32>, 1>;

fn l0_() {
    o[0].x = 0u;
    o[0].y = 0u;
    o[0].z = 0u;
    o[0].w = 0u;
    return;
}

fn run() {
    l0_();
    return;
}

@fragment 
fn main() -> PsOut {
    run();
    let _e2 = o[0];
    return PsOut(bitcast<vec4<f32>>(_e2));
}

/* manifest
{
  "stage": "fragment",
  "entry_point": "main",
  "bindings": [],
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
