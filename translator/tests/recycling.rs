//! Lowering reuses the containers and caches of a dropped module for the next program on the
//! same thread (`emit::spare`). Reuse must be invisible: a program translated after
//! a larger one, and again after a smaller one, gets the same bytes as on a fresh thread.

use translator::{Profile, translate_blob};

const SMALL: &str = "ps_4_0
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 1
mul r0.xyzw, v0.xyzw, l(2.0, 2.0, 2.0, 2.0)
mov o0.xyzw, r0.xyzw
ret
";

const LARGE: &str = "ps_4_0
dcl_constantbuffer cb0[4], immediateIndexed
dcl_input_ps linear v0.xyzw
dcl_output o0.xyzw
dcl_temps 3
dp4 r0.x, v0.xyzw, cb0[0].xyzw
dp4 r0.y, v0.xyzw, cb0[1].xyzw
dp4 r0.z, v0.xyzw, cb0[2].xyzw
dp4 r0.w, v0.xyzw, cb0[3].xyzw
lt r1.x, r0.x, l(0)
if_nz r1.x
  mad r2.xyzw, r0.xyzw, cb0[1].xyzw, cb0[2].xyzw
else
  add r2.xyzw, r0.wzyx, -cb0[3].xyzw
endif
mul o0.xyzw, r2.xyzw, r0.xyzw
ret
";

fn wgsl(text: &str, profile: Profile) -> String {
    let blob = dxbc::assemble_container(text)
        .expect("assembles")
        .to_bytes();
    translate_blob(&blob, profile).expect("translates").wgsl
}

#[test]
fn a_recycled_arena_changes_no_byte() {
    for profile in [Profile::Contract, Profile::Exact] {
        let fresh = |t: &'static str| {
            std::thread::spawn(move || wgsl(t, profile))
                .join()
                .expect("thread")
        };
        let (small, large) = (fresh(SMALL), fresh(LARGE));
        // On this thread each translation after the first reuses the previous one's arena.
        for _ in 0..3 {
            assert_eq!(wgsl(LARGE, profile), large, "{profile}");
            assert_eq!(wgsl(SMALL, profile), small, "{profile}");
        }
    }
}
