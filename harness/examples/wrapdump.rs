fn main() {
    let path = std::env::args().nth(1).expect("file");
    let blob = std::fs::read(&path).expect("read");
    let shader = dxbc::Shader::parse(&blob).expect("parse");
    let t = translator::translate(&shader, translator::Profile::Exact).expect("translate");
    match harness::gpu::wrap::wrap(&t.wgsl) {
        Ok(w) => println!("{}", w.wgsl),
        Err(e) => println!("ERR {e}"),
    }
}
