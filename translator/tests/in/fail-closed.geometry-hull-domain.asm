// Geometry programs have no WGSL stage: rejected.
gs_4_0
dcl_inputprimitive point
dcl_outputtopology pointlist
dcl_maxout 1
emit
ret
