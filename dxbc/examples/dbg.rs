fn main() {
    let args: Vec<String> = std::env::args().collect();
    let words: Vec<u32> = args[2].split(',').map(|w| u32::from_str_radix(w.trim().trim_start_matches("0x"), 16).unwrap()).collect();
    let inst = dxbc::decode::decode_one_instruction(&words).unwrap();
    let v = dxbc::Version::new(dxbc::Stage::Pixel, 5, 0);
    let _ = &args[1];
    println!("{inst:?}");
    let text = dxbc::disasm::instruction_text(&inst, v, dxbc::Syntax::Fxc);
    println!("{text}");
    println!("{:?}", dxbc::asm::parse_line(&text, v));
}
