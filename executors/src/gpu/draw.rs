//! Drawing a fragment kernel over a grid of quads (`wrap::Kernel::Quads`): the render
//! pipeline, its target and the pass. A pixel program with derivatives runs this way so that
//! derivatives and implicit LOD come from hardware quads (docs/harness.md, "Quads").

/// A compiled pipeline: compute, or a render pipeline that draws a fragment kernel over a
/// grid (`Records::grid`).
#[derive(Debug, Clone)]
pub(super) enum Pipeline {
    Compute(wgpu::ComputePipeline),
    Render(wgpu::RenderPipeline),
}

/// The vertex stage of the draw: two triangles that cover the viewport exactly (entry point
/// `dxdiff_cover`; the browser page draws with the same module).
pub const COVER: &str = "@vertex\nfn dxdiff_cover(@builtin(vertex_index) i: u32) -> @builtin(position) vec4<f32> {\n    var p = array<vec2<f32>, 6>(vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(-1.0, 1.0), vec2(-1.0, 1.0), vec2(1.0, -1.0), vec2(1.0, 1.0));\n    return vec4<f32>(p[i], 0.0, 1.0);\n}\n";

/// The colour target the draw needs (WebGPU wants one attachment); its writes are masked off.
const GRID_TARGET: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8Unorm;

/// The render pipeline that draws `entry_point` of `module` over the grid.
pub(super) fn render_pipeline(
    device: &wgpu::Device,
    layout: &wgpu::PipelineLayout,
    module: &wgpu::ShaderModule,
    entry_point: &str,
) -> wgpu::RenderPipeline {
    let cover = device.create_shader_module(wgpu::ShaderModuleDescriptor {
        label: Some("covering quad"),
        source: wgpu::ShaderSource::Wgsl(COVER.into()),
    });
    device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
        label: None,
        layout: Some(layout),
        vertex: wgpu::VertexState {
            module: &cover,
            entry_point: Some("dxdiff_cover"),
            compilation_options: Default::default(),
            buffers: &[],
        },
        primitive: Default::default(),
        depth_stencil: None,
        multisample: Default::default(),
        fragment: Some(wgpu::FragmentState {
            module,
            entry_point: Some(entry_point),
            compilation_options: Default::default(),
            targets: &[Some(wgpu::ColorTargetState {
                format: GRID_TARGET,
                blend: None,
                write_mask: wgpu::ColorWrites::empty(),
            })],
        }),
        multiview_mask: None,
        cache: None,
    })
}

/// A target of the grid's size (width, height in pixels).
pub(super) fn grid_target(device: &wgpu::Device, [width, height]: [u32; 2]) -> wgpu::TextureView {
    device
        .create_texture(&wgpu::TextureDescriptor {
            label: Some("grid target"),
            size: wgpu::Extent3d {
                width,
                height,
                depth_or_array_layers: 1,
            },
            mip_level_count: 1,
            sample_count: 1,
            dimension: wgpu::TextureDimension::D2,
            format: GRID_TARGET,
            usage: wgpu::TextureUsages::RENDER_ATTACHMENT,
            view_formats: &[],
        })
        .create_view(&Default::default())
}

/// One draw of the covering quad into `target`, with the bind groups in order.
pub(super) fn encode(
    encoder: &mut wgpu::CommandEncoder,
    pipeline: &wgpu::RenderPipeline,
    bind_groups: &[wgpu::BindGroup],
    target: &wgpu::TextureView,
) {
    let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: None,
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view: target,
            depth_slice: None,
            resolve_target: None,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Clear(wgpu::Color::TRANSPARENT),
                store: wgpu::StoreOp::Discard,
            },
        })],
        depth_stencil_attachment: None,
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    });
    pass.set_pipeline(pipeline);
    for (group, g) in (0..).zip(bind_groups) {
        pass.set_bind_group(group, g, &[]);
    }
    pass.draw(0..6, 0..1);
}
