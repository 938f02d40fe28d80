"""Which area defines each function of F, each op row and each declaration: data, so that a name
loads only its own area.

Generated from the areas themselves: `python tests/engine/test_area_index.py` rewrites INDEX;
tests/engine/test_area_index.py fails while it is out of date.
"""

from __future__ import annotations

_BY_KEY: dict | None = None
_DECLARED: dict[str, frozenset] = {}


def area_of(kind: str, key) -> str | None:
    """The area module holding `key` of `kind` ("function", "row", "declaration"), if known."""
    global _BY_KEY
    if _BY_KEY is None:
        _BY_KEY = {}
        for area, kinds in INDEX.items():
            for name in kinds.get("function", "").split():
                _BY_KEY["function", name] = area
            for name in kinds.get("row", "").split():
                _BY_KEY["row", name] = area
            for pair in kinds.get("declaration", "").split():
                _BY_KEY["declaration", tuple(pair.split(":"))] = area
    return _BY_KEY.get((kind, key))


def declared_names(variant: str) -> frozenset:
    """The names declared for `variant` ("torch", "method", "functional", "linalg")."""
    names = _DECLARED.get(variant)
    if names is None:
        prefix = variant + ":"
        names = _DECLARED[variant] = frozenset(
            pair[len(prefix):] for kinds in INDEX.values()
            for pair in kinds.get("declaration", "").split() if pair.startswith(prefix))
    return names


INDEX = {
    "gradcli.engine.ops.registry": {
        "function": (
            "AS_VJP Callable DEFAULT F LINEAR LateTable MULTI_OUTPUT NOT_FLOATING "
            "NOT_FLOATING_OR_LONG NO_GRAD_MODE Node OPS OpDef RESULT STATE Tensor annotations "
            "apply broadcast_shape compute_dtype declare define defop export field no_derivative "
            "no_grad_history not_differentiable not_implemented pointwise_op record "
            "reduction_dtype refusal_of_complex torch_layout "
        ),
    },
    "gradcli.engine.views": {
        "function": (
            "COPY_SLICES CopySlices grad_mode gradient_edge move_retained next_sequence_nr "
            "record_forward_stack regenerate_grad_fn view_index "
        ),
    },
    "gradcli.engine.ops.common": {
        "function": (
            "any_true apply_op cast detach fit_grad no_grad ones_for sum_to tensor_from zeros_for "
            "zeros_of "
        ),
    },
    "gradcli.engine.ops.pointwise": {
        "function": (
            "LN10 LN2 Scalar TWO_OVER_SQRT_PI abs acos add add_scalar asin atan atan2 binary ceil "
            "check_bool_subtraction check_integer_division check_not_bool check_operand clamp cos "
            "cosh div div_scalar efficient_zeros erf erf_values exp exp2 expm1 filled_like floor "
            "floor_divide frac lerp log log10 log1p log2 masked_fill masked_filled maximum "
            "maybe_multiply minimum mul mul_scalar neg negate positive pow reciprocal remainder "
            "round rounded_from_double rsqrt rsub scalar_div scalar_sub scalar_tensor sgn sigmoid "
            "sigmoid_values sign sin sinh sqrt square sub sub_scalar tan tanh trunc where "
            "wrapped_int xlogy "
        ),
        "row": (
            "_to_copy abs acos add.Scalar add.Tensor addcdiv addcmul asin atan atan2 ceil clamp "
            "clamp.Tensor cos cosh deg2rad div.Scalar div.Tensor div.Tensor_mode erf exp exp2 "
            "expm1 floor floor_divide frac hypot lerp.Scalar lerp.Tensor log log10 log1p log2 "
            "logaddexp logit masked_fill.Scalar masked_fill.Tensor maximum minimum mul.Scalar "
            "mul.Tensor neg pow.Scalar pow.Tensor_Scalar pow.Tensor_Tensor reciprocal "
            "remainder.Scalar remainder.Tensor round round.decimals rsqrt rsub.Scalar rsub.Tensor "
            "sgn sigmoid sign sin sinc sinh sqrt sub.Scalar sub.Tensor tan tanh trunc where.self "
            "xlogy.Scalar_Other xlogy.Scalar_Self xlogy.Tensor "
        ),
        "declaration": (
            "method:abs method:absolute method:acos method:add method:addcdiv method:addcmul "
            "method:arccos method:arcsin method:arctan method:arctan2 method:asin method:atan "
            "method:atan2 method:ceil method:clamp method:clip method:cos method:cosh "
            "method:deg2rad method:div method:divide method:erf method:exp method:exp2 "
            "method:expm1 method:fix method:floor method:floor_divide method:frac method:hypot "
            "method:lerp method:log method:log10 method:log1p method:log2 method:logaddexp "
            "method:logit method:masked_fill method:maximum method:minimum method:mul "
            "method:multiply method:neg method:negative method:positive method:pow "
            "method:reciprocal method:remainder method:round method:rsqrt method:sgn "
            "method:sigmoid method:sign method:sin method:sinc method:sinh method:sqrt "
            "method:square method:sub method:subtract method:tan method:tanh method:true_divide "
            "method:trunc method:where method:xlogy torch:abs torch:absolute torch:acos torch:add "
            "torch:addcdiv torch:addcmul torch:arccos torch:arcsin torch:arctan torch:arctan2 "
            "torch:asin torch:atan torch:atan2 torch:ceil torch:clamp torch:clip torch:cos "
            "torch:cosh torch:deg2rad torch:div torch:divide torch:erf torch:exp torch:exp2 "
            "torch:expm1 torch:fix torch:floor torch:floor_divide torch:frac torch:hypot "
            "torch:lerp torch:log torch:log10 torch:log1p torch:log2 torch:logaddexp torch:logit "
            "torch:masked_fill torch:maximum torch:minimum torch:mul torch:multiply torch:neg "
            "torch:negative torch:positive torch:pow torch:reciprocal torch:remainder torch:round "
            "torch:rsqrt torch:rsub torch:sgn torch:sigmoid torch:sign torch:sin torch:sinc "
            "torch:sinh torch:sqrt torch:square torch:sub torch:subtract torch:tan torch:tanh "
            "torch:true_divide torch:trunc torch:where torch:xlogy "
        ),
    },
    "gradcli.engine.ops.shapes": {
        "function": (
            "DECLARATIONS adjoint cat chunk clone contiguous dsplit expand expand_as flatten flip "
            "hermitian hsplit infer_shape is_contiguous matrix_transpose narrow narrow_copy "
            "normalize_dims permute reduction_dims repeat reshape reshape_as reversed_dims "
            "size_at size_list sizes_arg split split_with_sizes squeeze squeeze_ stack t t_ "
            "tensor_split transpose transpose_ triggered unbind unfold unsafe_chunk unsafe_split "
            "unsqueeze unsqueeze_ view view_as view_as_dtype vsplit wrap_dim "
        ),
        "row": (
            "_reshape_alias _unsafe_view alias block_diag cat clone expand flip narrow_copy "
            "permute repeat split.Tensor split_with_sizes squeeze squeeze.dim squeeze.dims "
            "squeeze_ squeeze_.dim squeeze_.dims stack t t_ transpose.int transpose_.int "
            "unbind.int unfold unfold_backward unsafe_split.Tensor unsqueeze unsqueeze_ view "
        ),
        "declaration": (
            "method:adjoint method:chunk method:clone method:contiguous method:dim_order "
            "method:dsplit method:expand method:expand_as method:flatten method:flip "
            "method:hsplit method:is_contiguous method:narrow method:narrow_copy method:numel "
            "method:permute method:ravel method:repeat method:reshape method:reshape_as "
            "method:split_with_sizes method:squeeze method:squeeze_ method:swapaxes_ "
            "method:swapdims_ method:t method:t_ method:tensor_split method:transpose "
            "method:transpose_ method:unbind method:unfold method:unsafe_chunk "
            "method:unsafe_split method:unsqueeze method:unsqueeze_ method:view method:view_as "
            "method:vsplit torch:adjoint torch:cat torch:chunk torch:clone torch:concat "
            "torch:concatenate torch:dsplit torch:flatten torch:flip torch:hsplit torch:narrow "
            "torch:narrow_copy torch:numel torch:permute torch:ravel torch:reshape "
            "torch:split_with_sizes torch:squeeze torch:stack torch:t torch:tensor_split "
            "torch:transpose torch:unbind torch:unsafe_chunk torch:unsafe_split torch:unsqueeze "
            "torch:vsplit "
        ),
    },
    "gradcli.engine.ops.sorting": {
        "function": (
            "argsort argwhere bincount bucketize builtins_sorted c_ordered count_nonzero histc "
            "kthvalue median mode msort nanmedian nonzero nonzero_static positions searchsorted "
            "sort sort_indices topk unique unique_consecutive "
        ),
        "row": (
            "_unique2 bincount kthvalue median median.dim mode nanmedian nanmedian.dim sort "
            "sort.stable topk unique_consecutive unique_dim "
        ),
        "declaration": (
            "method:argsort method:argwhere method:bincount method:count_nonzero method:histc "
            "method:kthvalue method:median method:mode method:msort method:nanmedian "
            "method:nonzero method:nonzero_static method:sort method:topk method:unique "
            "method:unique_consecutive torch:argsort torch:argwhere torch:bincount "
            "torch:bucketize torch:count_nonzero torch:histc torch:kthvalue torch:median "
            "torch:mode torch:msort torch:nanmedian torch:nonzero torch:nonzero_static "
            "torch:searchsorted torch:sort torch:topk torch:unique torch:unique_consecutive "
        ),
    },
    "gradcli.engine.creation": {
        "function": (
            "COPY_WARNING DEFAULT_GENERATOR FACTORY_GRAD_ERROR MAX_NESTING RANGE_WARNING "
            "RandomSource TO_SCALAR_WARNING arange as_tensor asarray check_random_range "
            "draw_source empty eye fill_random from_numpy full full_like get_default_dtype "
            "infer_dtype linspace logspace normal ones ones_like rand rand_like randint randn "
            "randn_like randperm range_ set_default_dtype size_args storage tensor zeros "
            "zeros_like "
        ),
        "declaration": (
            "method:cuda torch:arange torch:device torch:empty torch:eye torch:full "
            "torch:get_default_device torch:linspace torch:logspace torch:normal torch:ones "
            "torch:rand torch:rand_like torch:randint torch:randint_like torch:randn "
            "torch:randn_like torch:randperm torch:range torch:set_default_device torch:zeros "
        ),
    },
    "gradcli.engine.indexing": {
        "function": (
            "ZERO_DIM_INDEX advanced_array apply_basic check_byte_mask_fill check_masks "
            "checked_key get_item indexed_shape numpy_key sequence_key set_item unbind_rows "
        ),
    },
    "gradcli.engine.ops.activation": {
        "function": (
            "GELU_BETA GELU_KAPPA GELU_PDF SQRT1_2 elu elu_ elu_backward elu_double_backward "
            "elu_values functional_elu functional_leaky_relu gelu gelu_backward "
            "gelu_double_backward infinitely_differentiable_silu_backward leaky_relu leaky_relu_ "
            "leaky_relu_backward log_sigmoid_backward_values log_sigmoid_values log_softmax "
            "log_softmax_backward_data prelu relu sigmoid_backward silu silu_backward softmax "
            "softmax_backward_data softmax_double_backward softplus softplus_backward "
            "softplus_double_backward tanh_backward threshold_backward "
        ),
        "row": (
            "_log_softmax _log_softmax_backward_data _prelu_kernel _softmax "
            "_softmax_backward_data elu elu_ elu_backward gelu gelu_backward leaky_relu "
            "leaky_relu_ leaky_relu_backward relu sigmoid_backward silu silu_backward softplus "
            "softplus_backward tanh_backward threshold_backward "
        ),
        "declaration": (
            "functional:elu functional:elu_ functional:gelu functional:leaky_relu "
            "functional:leaky_relu_ method:log_softmax method:prelu method:relu method:softmax "
            "torch:log_softmax torch:prelu torch:relu torch:softmax "
        ),
    },
    "gradcli.engine.ops.arrange": {
        "function": (
            "MESHGRID_WARNING SCATTER_REDUCE_WARNING atleast atleast_1d atleast_2d atleast_3d "
            "block_diag broadcast_tensors broadcast_to cartesian_prod clamp_max clamp_min "
            "column_stack combinations diff dstack fliplr flipud fmod hstack index_fill "
            "index_fill_ linalg_vander masked_fill_ masked_scatter masked_scatter_ masked_select "
            "meshgrid nan_to_num new_empty new_full new_ones new_tensor new_zeros put put_ "
            "repeat_interleave require_tensors resize_ roll rot90 scatter_ scatter_op "
            "scatter_reduce scatter_reduce_ scatter_reduce_backward scatter_reduce_kernel "
            "select_index storage_offset stride strides swapaxes take tile tril tril_indices triu "
            "triu_indices unflatten unflatten_method unravel_index vander vstack "
        ),
        "row": (
            "clamp_max clamp_max.Tensor clamp_min clamp_min.Tensor fmod.Scalar fmod.Tensor "
            "index_fill.int_Scalar masked_scatter masked_scatter_backward masked_select "
            "nan_to_num put roll rot90 scatter.reduce scatter.value scatter_reduce.two take tril "
            "triu "
        ),
        "declaration": (
            "linalg:vander method:broadcast_to method:clamp_max method:clamp_min method:diff "
            "method:element_size method:fliplr method:flipud method:fmod method:index_fill "
            "method:index_fill_ method:is_complex method:is_floating_point method:is_inference "
            "method:masked_fill_ method:masked_scatter method:masked_scatter_ "
            "method:masked_select method:nan_to_num method:nelement method:new_empty "
            "method:new_full method:new_ones method:new_tensor method:new_zeros method:put "
            "method:put_ method:repeat_interleave method:resize_ method:roll method:rot90 "
            "method:scatter method:scatter_ method:scatter_reduce method:scatter_reduce_ "
            "method:select method:storage_offset method:stride method:swapaxes method:swapdims "
            "method:take method:tile method:tril method:triu method:unflatten torch:atleast_1d "
            "torch:atleast_2d torch:atleast_3d torch:block_diag torch:broadcast_tensors "
            "torch:broadcast_to torch:cartesian_prod torch:clamp_max torch:clamp_min "
            "torch:column_stack torch:combinations torch:diff torch:dstack torch:fliplr "
            "torch:flipud torch:fmod torch:hstack torch:index_fill torch:is_complex "
            "torch:is_floating_point torch:is_inference torch:is_tensor torch:masked_scatter "
            "torch:masked_select torch:meshgrid torch:nan_to_num torch:put "
            "torch:repeat_interleave torch:roll torch:rot90 torch:row_stack torch:scatter "
            "torch:scatter_reduce torch:select torch:swapaxes torch:swapdims torch:take "
            "torch:tile torch:tril torch:tril_indices torch:triu torch:triu_indices "
            "torch:unflatten torch:unravel_index torch:vander torch:vstack "
        ),
    },
    "gradcli.engine.ops.attention": {
        "function": (
            "FLASH_LABEL NativeNode safe_softmax scaled_dot_product_attention "
        ),
        "row": (
            "_safe_softmax "
        ),
        "declaration": (
            "functional:scaled_dot_product_attention "
        ),
    },
    "gradcli.engine.ops.bilinear": {
        "function": (
            "bilinear trilinear "
        ),
        "row": (
            "_trilinear "
        ),
        "declaration": (
            "functional:bilinear torch:bilinear "
        ),
    },
    "gradcli.engine.ops.comparison": {
        "function": (
            "all allclose any bitwise_and bitwise_left_shift bitwise_not bitwise_or "
            "bitwise_right_shift bitwise_shift bitwise_xor compare eq equal ge gt isclose "
            "isfinite isin isinf isnan isneginf isposinf isreal le logical_and logical_binary "
            "logical_not logical_or logical_xor lt ne python_compare truth "
        ),
        "row": (
            "all any bitwise_and bitwise_left_shift bitwise_not bitwise_or bitwise_right_shift "
            "bitwise_xor eq.Tensor ge.Tensor gt.Tensor isfinite isinf isnan le.Tensor logical_and "
            "logical_not logical_or logical_xor lt.Tensor ne.Tensor "
        ),
        "declaration": (
            "method:all method:allclose method:any method:bitwise_and method:bitwise_left_shift "
            "method:bitwise_not method:bitwise_or method:bitwise_right_shift method:bitwise_xor "
            "method:eq method:equal method:ge method:greater method:greater_equal method:gt "
            "method:is_nonzero method:isclose method:isfinite method:isinf method:isnan "
            "method:isneginf method:isposinf method:isreal method:le method:less "
            "method:less_equal method:logical_and method:logical_not method:logical_or "
            "method:logical_xor method:lt method:ne method:not_equal torch:all torch:allclose "
            "torch:any torch:bitwise_and torch:bitwise_left_shift torch:bitwise_not "
            "torch:bitwise_or torch:bitwise_right_shift torch:bitwise_xor torch:eq torch:equal "
            "torch:ge torch:greater torch:greater_equal torch:gt torch:is_nonzero torch:isclose "
            "torch:isfinite torch:isin torch:isinf torch:isnan torch:isneginf torch:isposinf "
            "torch:isreal torch:le torch:less torch:less_equal torch:logical_and "
            "torch:logical_not torch:logical_or torch:logical_xor torch:lt torch:ne "
            "torch:not_equal "
        ),
    },
    "gradcli.engine.ops.complex_numbers": {
        "function": (
            "angle complex_ conj conj_physical imag is_conj is_neg polar real resolve_conj "
            "resolve_neg view_as_complex view_as_real "
        ),
        "row": (
            "angle complex conj conj_physical polar view_as_complex view_as_real "
        ),
        "declaration": (
            "method:angle method:conj method:conj_physical method:is_conj method:is_neg "
            "method:resolve_conj method:resolve_neg torch:angle torch:complex torch:conj "
            "torch:conj_physical torch:imag torch:is_conj torch:is_neg torch:polar torch:real "
            "torch:resolve_conj torch:resolve_neg torch:view_as_complex torch:view_as_real "
        ),
    },
    "gradcli.engine.ops.convolution": {
        "function": (
            "EXACT_BUDGET adaptive_avg_pool1d adaptive_avg_pool2d avg_pool1d avg_pool2d conv1d "
            "conv2d conv3d conv_transpose1d conv_transpose2d conv_transpose3d convolution "
            "convolution_backward lowest max_pool1d max_pool2d max_pool2d_with_indices "
        ),
        "row": (
            "_adaptive_avg_pool2d _adaptive_avg_pool2d_backward avg_pool2d avg_pool2d_backward "
            "convolution convolution_backward max_pool2d_with_indices "
            "max_pool2d_with_indices_backward "
        ),
        "declaration": (
            "functional:adaptive_avg_pool1d functional:adaptive_avg_pool2d functional:avg_pool1d "
            "functional:avg_pool2d functional:conv1d functional:conv2d functional:conv3d "
            "functional:conv_transpose1d functional:conv_transpose2d functional:conv_transpose3d "
            "functional:max_pool1d functional:max_pool1d_with_indices functional:max_pool2d "
            "functional:max_pool2d_with_indices torch:adaptive_avg_pool1d torch:avg_pool1d "
            "torch:conv1d torch:conv2d torch:conv3d torch:conv_transpose1d torch:conv_transpose2d "
            "torch:conv_transpose3d "
        ),
    },
    "gradcli.engine.ops.ctc_loss": {
        "function": (
            "ctc_loss functional_ctc_loss glibc_expf "
        ),
        "row": (
            "_ctc_loss _ctc_loss_backward "
        ),
        "declaration": (
            "functional:ctc_loss torch:ctc_loss "
        ),
    },
    "gradcli.engine.ops.decompositions": {
        "function": (
            "DOF_WARNING ReturnTypes amax amin argmax argmin axis_of check_dim_nonempty "
            "check_mean_dtype cholesky cholesky_ex cholesky_inverse cholesky_solve cond "
            "correction_of cumprod cumsum det diag_embed diagflat dim_product dims_of eig eigh "
            "eigvals eigvalsh evenly_distribute_backward evenly_read_jvp full_sum "
            "gather_with_keepdimed_indices inv_ex inverse last_dim_sums linalg_cholesky "
            "linalg_norm linalg_solve linalg_svd logdet logsumexp logsumexp_jvp lstsq matrix_exp "
            "matrix_norm matrix_power matrix_rank max mean min norm norm_backward outer_dim_sums "
            "pinv power_norm prod qr qr_some reduced_numel restore_reduced_dims reversed_cumsum "
            "scatter slogdet solve_ex solve_triangular std std_backward strided_row_sums sum "
            "sum_backward sum_values svd svdvals tensorinv tensorsolve two_norm "
            "unsqueeze_multiple value_selecting_backward values_at_indices var var_backward "
            "variance vector_norm vector_norm_values whole_product "
        ),
        "row": (
            "_linalg_eigh _linalg_svd amax amin cholesky cholesky_inverse cholesky_solve cumprod "
            "cumsum diag_embed.dims linalg_cholesky_ex linalg_det linalg_eig linalg_inv_ex "
            "linalg_lstsq linalg_matrix_exp linalg_pinv linalg_qr linalg_slogdet linalg_solve_ex "
            "linalg_solve_triangular linalg_vector_norm logsumexp max max.dim mean mean.dim min "
            "min.dim prod prod.dim_int scatter.src std.correction sum sum.dim_IntList "
            "var.correction "
        ),
        "declaration": (
            "linalg:cholesky linalg:cholesky_ex linalg:cond linalg:det linalg:eig linalg:eigh "
            "linalg:eigvals linalg:eigvalsh linalg:inv linalg:inv_ex linalg:lstsq "
            "linalg:matrix_exp linalg:matrix_norm linalg:matrix_power linalg:matrix_rank "
            "linalg:norm linalg:pinv linalg:qr linalg:slogdet linalg:solve linalg:solve_ex "
            "linalg:solve_triangular linalg:svd linalg:svdvals linalg:tensorinv "
            "linalg:tensorsolve linalg:vector_norm method:amax method:amin method:argmax "
            "method:argmin method:cholesky method:cholesky_inverse method:cholesky_solve "
            "method:cumprod method:cumsum method:det method:diag_embed method:diagflat "
            "method:inverse method:logdet method:logsumexp method:matrix_exp method:matrix_power "
            "method:max method:mean method:min method:norm method:pinverse method:prod method:qr "
            "method:slogdet method:std method:sum method:svd method:var torch:amax torch:amin "
            "torch:argmax torch:argmin torch:cholesky torch:cholesky_inverse torch:cholesky_solve "
            "torch:cumprod torch:cumsum torch:det torch:diag_embed torch:diagflat torch:inverse "
            "torch:logdet torch:logsumexp torch:matrix_exp torch:matrix_power torch:max "
            "torch:mean torch:min torch:norm torch:pinverse torch:prod torch:qr torch:slogdet "
            "torch:std torch:sum torch:svd torch:var "
        ),
    },
    "gradcli.engine.ops.dual": {
        "function": (
            "primal_view "
        ),
        "row": (
            "_unpack_dual "
        ),
    },
    "gradcli.engine.ops.embedding_bag": {
        "function": (
            "MODES embedding_bag fused "
        ),
        "row": (
            "_embedding_bag _embedding_bag.per_sample_weights _embedding_bag_backward "
            "_embedding_bag_per_sample_weights_backward "
        ),
        "declaration": (
            "functional:embedding_bag "
        ),
    },
    "gradcli.engine.ops.fake_quantize": {
        "row": (
            "fake_quantize_per_channel fake_quantize_per_tensor fake_quantize_per_tensor_qparams "
        ),
        "declaration": (
            "torch:fake_quantize_per_channel_affine torch:fake_quantize_per_tensor_affine "
        ),
    },
    "gradcli.engine.ops.gating": {
        "row": (
            "glu "
        ),
        "declaration": (
            "functional:glu "
        ),
    },
    "gradcli.engine.ops.gradient": {
        "function": (
            "gradient "
        ),
        "declaration": (
            "torch:gradient "
        ),
    },
    "gradcli.engine.ops.grid_sample": {
        "row": (
            "affine_grid_generator grid_sampler_2d grid_sampler_2d_backward "
        ),
        "declaration": (
            "functional:affine_grid functional:grid_sample torch:affine_grid_generator "
            "torch:grid_sampler "
        ),
    },
    "gradcli.engine.ops.group_norm": {
        "function": (
            "group_norm "
        ),
        "row": (
            "native_group_norm "
        ),
        "declaration": (
            "functional:group_norm "
        ),
    },
    "gradcli.engine.ops.histograms": {
        "function": (
            "histogram histogramdd "
        ),
        "row": (
            "_histogramdd_bin_edges _histogramdd_from_bin_cts _histogramdd_from_bin_tensors "
            "histogram "
        ),
        "declaration": (
            "method:histogram torch:histogram torch:histogramdd "
        ),
    },
    "gradcli.engine.ops.index_reduce": {
        "function": (
            "BETA_WARNING index_reduce index_reduce_ "
        ),
        "row": (
            "index_reduce "
        ),
        "declaration": (
            "method:index_reduce method:index_reduce_ torch:index_reduce "
        ),
    },
    "gradcli.engine.ops.inplace": {
        "function": (
            "IMMUTABLE_SETITEM IN_CUSTOM_FUNCTION apply_inplace assign_into check_inplace "
            "check_mutable copy_ declare_inplace declare_written_back fill_ fill_diagonal_ "
            "index_put_ leaf_note short_name zero_ "
        ),
        "row": (
            "copy_ fill_.Scalar fill_.Tensor zero_ "
        ),
        "declaration": (
            "method:copy_ method:fill_ method:fill_diagonal_ method:index_put method:index_put_ "
            "method:zero_ torch:index_put "
        ),
    },
    "gradcli.engine.ops.interpolate": {
        "row": (
            "upsample_bicubic2d upsample_bicubic2d_backward upsample_bilinear2d "
            "upsample_bilinear2d_aa upsample_bilinear2d_aa_backward upsample_bilinear2d_backward "
            "upsample_linear1d upsample_linear1d_backward upsample_nearest1d "
            "upsample_nearest1d_backward upsample_nearest2d upsample_nearest2d_backward "
            "upsample_nearest3d upsample_nearest3d_backward upsample_nearest_exact1d "
            "upsample_nearest_exact1d_backward upsample_nearest_exact2d "
            "upsample_nearest_exact2d_backward upsample_nearest_exact3d "
            "upsample_nearest_exact3d_backward upsample_trilinear3d upsample_trilinear3d_backward "
        ),
        "declaration": (
            "functional:interpolate functional:upsample functional:upsample_bilinear "
            "functional:upsample_nearest "
        ),
    },
    "gradcli.engine.ops.linalg": {
        "function": (
            "addmm bmm bmm_values check_batches check_dot check_expandable coefficients diag "
            "diagonal dot element_strides linalg_diagonal linear matmul mm mm_mat1_backward "
            "mm_mat2_backward movedim mv outer trace unsafe_view "
        ),
        "row": (
            "addmm bmm diag_embed diagonal diagonal_backward diagonal_copy dot "
            "index_fill.int_Tensor mm mv trace "
        ),
        "declaration": (
            "linalg:diagonal method:bmm method:diag method:diagonal method:dot method:eig "
            "method:ger method:lstsq method:matmul method:mm method:moveaxis method:movedim "
            "method:mv method:outer method:solve method:symeig method:trace torch:bmm torch:diag "
            "torch:diagonal torch:dot torch:eig torch:ger torch:lstsq torch:matmul "
            "torch:matrix_rank torch:mm torch:moveaxis torch:movedim torch:mv torch:outer "
            "torch:solve torch:symeig torch:trace "
        ),
    },
    "gradcli.engine.ops.local_response_norm": {
        "declaration": (
            "functional:local_response_norm "
        ),
    },
    "gradcli.engine.ops.losses": {
        "function": (
            "EPSILON REDUCTIONS apply_loss_reduction bce_backward binary_cross_entropy "
            "binary_cross_entropy_with_logits check_constant checked_reduction cross_entropy "
            "expanded_pair l1_loss legacy_reduction mean_norm mse_loss mse_loss_backward nll_loss "
            "reduce_loss reduction_of smooth_l1_backward smooth_l1_loss weighted_loss "
        ),
        "row": (
            "binary_cross_entropy binary_cross_entropy_backward binary_cross_entropy_with_logits "
            "mse_loss mse_loss_backward nll_loss2d_backward nll_loss2d_forward nll_loss_backward "
            "nll_loss_forward smooth_l1_loss smooth_l1_loss_backward "
        ),
    },
    "gradcli.engine.ops.lu": {
        "function": (
            "call deprecated_lu_solve linalg_lu lu lu_factor lu_factor_ex lu_solve lu_unpack "
            "lu_with_info "
        ),
        "row": (
            "linalg_lu linalg_lu_factor_ex linalg_lu_solve lu_unpack "
        ),
        "declaration": (
            "linalg:lu linalg:lu_factor linalg:lu_factor_ex linalg:lu_solve method:lu "
            "method:lu_solve torch:_lu_with_info torch:lu torch:lu_solve torch:lu_unpack "
        ),
    },
    "gradcli.engine.ops.ldl": {
        "function": (
            "ldl_factor ldl_factor_ex ldl_solve "
        ),
        "row": (
            "linalg_ldl_factor_ex linalg_ldl_solve "
        ),
        "declaration": (
            "linalg:ldl_factor linalg:ldl_factor_ex linalg:ldl_solve "
        ),
    },
    "gradcli.engine.ops.householder": {
        "function": (
            "geqrf householder_product "
        ),
        "row": (
            "geqrf linalg_householder_product "
        ),
        "declaration": (
            "linalg:householder_product method:geqrf method:orgqr torch:geqrf torch:orgqr "
        ),
    },
    "gradcli.engine.ops.multi_margin": {
        "row": (
            "multi_margin_loss multi_margin_loss_backward multilabel_margin_loss_backward "
            "multilabel_margin_loss_forward soft_margin_loss soft_margin_loss_backward "
        ),
        "declaration": (
            "functional:multi_margin_loss functional:multilabel_margin_loss "
            "functional:soft_margin_loss "
        ),
    },
    "gradcli.engine.ops.nn_functional": {
        "function": (
            "SELU_ALPHA SELU_SCALE batch_norm celu constant_pad_nd cosine_embedding_loss "
            "cosine_similarity dropout dropout1d dropout2d dropout3d dropout_arguments embedding "
            "embedding_renorm feature_dropout gaussian_nll_loss hardshrink hardsigmoid hardswish "
            "hardtanh hinge_embedding_loss huber_loss instance_norm kl_div layer_norm logsigmoid "
            "margin_ranking_loss mish normalize one_hot pad pairwise_distance poisson_nll_loss "
            "relu6 selu softmin softshrink softsign tanhshrink threshold triplet_margin_loss "
        ),
        "row": (
            "celu celu_ constant_pad_nd embedding embedding_dense_backward hardshrink "
            "hardshrink_backward hardsigmoid hardsigmoid_backward hardswish hardswish_backward "
            "hardtanh hardtanh_backward huber_loss huber_loss_backward log_sigmoid "
            "log_sigmoid_backward mish mish_backward native_batch_norm native_batch_norm_backward "
            "native_layer_norm native_layer_norm_backward softshrink softshrink_backward "
            "threshold threshold_ "
        ),
        "declaration": (
            "functional:batch_norm functional:celu functional:celu_ "
            "functional:cosine_embedding_loss functional:cosine_similarity functional:dropout "
            "functional:dropout1d functional:dropout2d functional:dropout3d functional:embedding "
            "functional:gaussian_nll_loss functional:hardshrink functional:hardsigmoid "
            "functional:hardswish functional:hardtanh functional:hardtanh_ "
            "functional:hinge_embedding_loss functional:huber_loss functional:instance_norm "
            "functional:kl_div functional:layer_norm functional:logsigmoid "
            "functional:margin_ranking_loss functional:mish functional:normalize "
            "functional:one_hot functional:pad functional:pairwise_distance "
            "functional:poisson_nll_loss functional:relu6 functional:selu functional:selu_ "
            "functional:softmin functional:softshrink functional:softsign functional:tanhshrink "
            "functional:threshold functional:threshold_ functional:triplet_margin_loss "
            "method:hardshrink torch:constant_pad_nd torch:cosine_similarity torch:hardshrink "
            "torch:pairwise_distance "
        ),
    },
    "gradcli.engine.ops.nn_extra": {
        "function": (
            "alpha_dropout channel_shuffle feature_alpha_dropout lp_pool1d lp_pool2d lp_pool3d "
            "multilabel_soft_margin_loss "
        ),
        "row": (
            "channel_shuffle native_channel_shuffle "
        ),
        "declaration": (
            "functional:alpha_dropout functional:channel_shuffle functional:feature_alpha_dropout "
            "functional:lp_pool1d functional:lp_pool2d functional:lp_pool3d "
            "functional:multilabel_soft_margin_loss functional:native_channel_shuffle "
            "torch:channel_shuffle torch:native_channel_shuffle "
        ),
    },
    "gradcli.engine.ops.packing": {
        "row": (
            "_pack_padded_sequence "
        ),
    },
    "gradcli.engine.ops.padding": {
        "row": (
            "reflection_pad1d reflection_pad1d_backward reflection_pad2d "
            "reflection_pad2d_backward reflection_pad3d reflection_pad3d_backward "
            "replication_pad1d replication_pad1d_backward replication_pad2d "
            "replication_pad2d_backward replication_pad3d replication_pad3d_backward "
        ),
    },
    "gradcli.engine.ops.pool_indices": {
        "row": (
            "adaptive_max_pool2d adaptive_max_pool2d_backward max_unpool2d max_unpool3d "
        ),
        "declaration": (
            "functional:adaptive_max_pool1d functional:adaptive_max_pool1d_with_indices "
            "functional:adaptive_max_pool2d functional:adaptive_max_pool2d_with_indices "
            "functional:max_unpool1d functional:max_unpool2d functional:max_unpool3d "
            "torch:adaptive_max_pool1d "
        ),
    },
    "gradcli.engine.ops.fractional_pool": {
        "row": (
            "fractional_max_pool2d fractional_max_pool2d_backward fractional_max_pool3d "
            "fractional_max_pool3d_backward "
        ),
        "declaration": (
            "functional:fractional_max_pool2d functional:fractional_max_pool2d_with_indices "
            "functional:fractional_max_pool3d functional:fractional_max_pool3d_with_indices "
        ),
    },
    "gradcli.engine.ops.pool3d": {
        "function": (
            "adaptive_avg_pool3d adaptive_max_pool3d avg_pool3d max_pool3d max_pool3d_values "
            "max_pool3d_with_indices "
        ),
        "row": (
            "_adaptive_avg_pool3d _adaptive_avg_pool3d_backward adaptive_max_pool3d "
            "adaptive_max_pool3d_backward avg_pool3d avg_pool3d_backward max_pool3d_with_indices "
            "max_pool3d_with_indices_backward "
        ),
        "declaration": (
            "functional:adaptive_avg_pool3d functional:adaptive_max_pool3d "
            "functional:adaptive_max_pool3d_with_indices functional:avg_pool3d "
            "functional:max_pool3d functional:max_pool3d_with_indices torch:max_pool3d "
        ),
    },
    "gradcli.engine.ops.patches": {
        "function": (
            "col2im fold_blocks im2col pixel_shuffle pixel_unshuffle unfold_blocks "
        ),
        "row": (
            "col2im im2col pixel_shuffle pixel_unshuffle "
        ),
        "declaration": (
            "functional:fold functional:pixel_shuffle functional:pixel_unshuffle "
            "functional:unfold torch:pixel_shuffle torch:pixel_unshuffle "
        ),
    },
    "gradcli.engine.ops.pointwise_more": {
        "function": (
            "SQRT_PI_OVER_2 acosh asinh atanh copysign erfinv float_power fmax fmin frexp "
            "heaviside ldexp ldexp_ logaddexp2 nextafter rad2deg signbit warn_resized "
        ),
        "row": (
            "acosh asinh atanh copysign.Scalar copysign.Tensor erfinv fmax fmin frexp.Tensor gcd "
            "heaviside lcm ldexp.Tensor logaddexp2 nextafter rad2deg "
        ),
        "declaration": (
            "method:acosh method:arccosh method:arcsinh method:arctanh method:asinh method:atanh "
            "method:copysign method:erfinv method:float_power method:fmax method:fmin "
            "method:frexp method:gcd method:heaviside method:lcm method:ldexp method:ldexp_ "
            "method:logaddexp2 method:nextafter method:rad2deg method:signbit torch:acosh "
            "torch:arccosh torch:arcsinh torch:arctanh torch:asinh torch:atanh torch:copysign "
            "torch:erfinv torch:float_power torch:fmax torch:fmin torch:frexp torch:gcd "
            "torch:heaviside torch:lcm torch:ldexp torch:logaddexp2 torch:nextafter torch:rad2deg "
            "torch:signbit "
        ),
    },
    "gradcli.engine.ops.products": {
        "function": (
            "addbmm addmm_scaled addmv addr baddbmm cdist chain_matmul contract cross dist inner "
            "kron linalg_cross linalg_vecdot multi_dot pdist scaled_sum tensordot vdot "
        ),
        "row": (
            "_cdist_backward _cdist_forward _euclidean_dist _pdist_backward _pdist_forward addbmm "
            "addmv addr baddbmm dist linalg_cross vdot "
        ),
        "declaration": (
            "functional:pdist linalg:cross linalg:multi_dot linalg:vecdot method:addbmm "
            "method:addmm method:addmv method:addr method:baddbmm method:cross method:dist "
            "method:inner method:kron method:vdot torch:addbmm torch:addmm torch:addmv torch:addr "
            "torch:baddbmm torch:cdist torch:chain_matmul torch:cross torch:dist torch:inner "
            "torch:kron torch:pdist torch:tensordot torch:vdot "
        ),
    },
    "gradcli.engine.ops.reductions_more": {
        "function": (
            "aminmax cummax cummin cumulative_trapezoid nanmean nansum renorm sum_to_size "
            "trapezoid "
        ),
        "row": (
            "aminmax cummax cummin nansum renorm "
        ),
        "declaration": (
            "method:aminmax method:cummax method:cummin method:nanmean method:nansum "
            "method:renorm method:sum_to_size torch:aminmax torch:cummax torch:cummin "
            "torch:cumulative_trapezoid torch:nanmean torch:nansum torch:renorm torch:trapezoid "
            "torch:trapz "
        ),
    },
    "gradcli.engine.ops.rms_norm": {
        "declaration": (
            "functional:rms_norm torch:rms_norm "
        ),
    },
    "gradcli.engine.ops.sampled_activations": {
        "row": (
            "rrelu_with_noise rrelu_with_noise_ rrelu_with_noise_backward "
        ),
        "declaration": (
            "functional:gumbel_softmax functional:rrelu functional:rrelu_ torch:rrelu "
            "torch:rrelu_ "
        ),
    },
    "gradcli.engine.ops.scatters": {
        "function": (
            "as_strided_scatter diagonal_scatter select_scatter slice_scatter "
        ),
        "row": (
            "diagonal_scatter select_scatter slice_scatter "
        ),
        "declaration": (
            "method:as_strided_scatter method:diagonal_scatter method:select_scatter "
            "method:slice_scatter torch:as_strided_scatter torch:diagonal_scatter "
            "torch:select_scatter torch:slice_scatter "
        ),
    },
    "gradcli.engine.ops.selection": {
        "function": (
            "alias as_strided check_index_put_value check_index_source check_index_vector "
            "check_long_index gather index index_add index_copy index_put index_put_key "
            "index_select scatter_add scatter_checks scatter_into scatter_key scatter_positions "
            "select slice_dim take_along_dim "
        ),
        "row": (
            "_index_put_impl_ as_strided as_strided_backward as_strided_scatter gather "
            "index.Tensor index_add index_copy index_put index_select scatter_add select.int "
            "select_backward slice.Tensor slice_backward "
        ),
        "declaration": (
            "method:as_strided method:gather method:index_add method:index_copy "
            "method:index_select method:scatter_add method:take_along_dim torch:as_strided "
            "torch:gather torch:index_add torch:index_copy torch:index_select torch:scatter_add "
            "torch:take_along_dim "
        ),
    },
    "gradcli.engine.ops.sparse_coo": {
        "function": (
            "INVARIANTS_WARNING SPARSE_ROWS add_into_dense coalesce dense_dim "
            "embedding_sparse_grad indices is_coalesced legacy_sparse mm_sparse mv_sparse "
            "registry_apply sparse_add sparse_addmm sparse_apply sparse_cast sparse_clone "
            "sparse_coo_tensor sparse_dim sparse_div sparse_log_softmax sparse_mask sparse_mm "
            "sparse_mul sparse_neg sparse_permute sparse_select sparse_softmax sparse_sub "
            "sparse_sum sparse_t sparse_transpose sparse_valuewise sparse_zero_ sparse_zeros_like "
            "spmm sum_dims to_dense to_sparse values "
        ),
        "declaration": (
            "method:_indices method:_nnz method:_values method:coalesce method:dense_dim "
            "method:indices method:is_coalesced method:sparse_dim method:sparse_mask "
            "method:to_dense method:to_sparse method:to_sparse_coo method:values sparse:addmm "
            "sparse:log_softmax sparse:mm sparse:softmax sparse:sum torch:spmm "
        ),
    },
    "gradcli.engine.ops.special": {
        "function": (
            "digamma lgamma mvlgamma polygamma zeta "
        ),
        "row": (
            "digamma lgamma mvlgamma polygamma special_zeta special_zeta.other_scalar "
            "special_zeta.self_scalar "
        ),
        "declaration": (
            "method:digamma method:lgamma method:mvlgamma method:polygamma special:zeta "
            "torch:digamma torch:lgamma torch:mvlgamma torch:polygamma "
        ),
    },
    "gradcli.engine.ops.spectral": {
        "function": (
            "fft fft_c2c fft_c2r fft_r2c fftfreq fftshift hfft ifft ifftshift ihfft irfft istft "
            "rfft rfftfreq stft "
        ),
        "row": (
            "_fft_c2c _fft_c2r _fft_r2c "
        ),
        "declaration": (
            "fft:fft fft:fft2 fft:fftfreq fft:fftn fft:fftshift fft:hfft fft:hfft2 fft:hfftn "
            "fft:ifft fft:ifft2 fft:ifftn fft:ifftshift fft:ihfft fft:ihfft2 fft:ihfftn fft:irfft "
            "fft:irfft2 fft:irfftn fft:rfft fft:rfft2 fft:rfftfreq fft:rfftn method:istft "
            "method:stft torch:istft torch:stft "
        ),
    },
    "gradcli.engine.ops.special_more": {
        "function": (
            "declare_alias entr erfc erfcx i0 i0e i1 i1e igamma igammac log_ndtr logcumsumexp "
            "ndtr ndtri xlog1py "
        ),
        "row": (
            "entr erfc i0 i0e i1 i1e igamma igammac logcumsumexp ndtri special_erfcx "
            "special_log_ndtr special_xlog1py special_xlog1py.other_scalar "
            "special_xlog1py.self_scalar "
        ),
        "declaration": (
            "method:erfc method:i0 method:igamma method:igammac method:logcumsumexp "
            "special:bessel_j0 special:bessel_j1 special:digamma special:entr special:erf "
            "special:erfc special:erfcx special:erfinv special:exp2 special:expit special:expm1 "
            "special:gammainc special:gammaincc special:gammaln special:i0 special:i0e special:i1 "
            "special:i1e special:log1p special:log_ndtr special:log_softmax special:logit "
            "special:logsumexp special:multigammaln special:ndtr special:ndtri special:polygamma "
            "special:psi special:round special:sinc special:softmax special:xlog1py special:xlogy "
            "torch:erfc torch:i0 torch:igamma torch:igammac torch:logcumsumexp "
        ),
    },
    "gradcli.engine.ops.statistics": {
        "function": (
            "corrcoef cov moments nanquantile quantile std_mean var_mean "
        ),
        "row": (
            "std_mean.correction var_mean.correction "
        ),
        "declaration": (
            "method:corrcoef method:cov method:nanquantile method:quantile torch:corrcoef "
            "torch:cov torch:nanquantile torch:quantile torch:std_mean torch:var_mean "
        ),
    },
    "gradcli.engine.ops.strided_factories": {
        "declaration": (
            "method:new_empty_strided torch:empty_permuted torch:empty_strided "
        ),
    },
    "gradcli.engine.ops.triangular_solve": {
        "function": (
            "triangular_solve "
        ),
        "row": (
            "triangular_solve "
        ),
        "declaration": (
            "method:triangular_solve torch:triangular_solve "
        ),
    },
    "gradcli.engine.ops.weight_norm": {
        "function": (
            "norm_except_dim "
        ),
        "row": (
            "_weight_norm_interface norm.Scalar norm.ScalarOpt_dim "
        ),
        "declaration": (
            "torch:_weight_norm torch:_weight_norm_interface torch:norm_except_dim "
        ),
    },
    "gradcli.engine.binomial": {
        "function": (
            "binomial "
        ),
        "row": (
            "binomial "
        ),
        "declaration": (
            "torch:binomial "
        ),
    },
    "gradcli.engine.conversions": {
        "function": (
            "CONVERTERS CUDA_LEGACY_NAMES NO_CUDA_LIBRARY can_cast cast_values "
            "check_memory_format converter result_type to to_dtype to_numpy type_ "
        ),
        "declaration": (
            "method:to torch:can_cast torch:promote_types torch:result_type "
        ),
    },
    "gradcli.engine.distributions": {
        "function": (
            "FunctionNode attach_output bernoulli bernoulli_ cauchy_ dirichlet_grad "
            "dirichlet_rsample exponential_ geometric_ log_normal_ multinomial poisson random_ "
            "sample_dirichlet standard_gamma standard_gamma_draws standard_gamma_grad "
        ),
        "row": (
            "_dirichlet_grad _sample_dirichlet _standard_gamma _standard_gamma_grad bernoulli "
            "poisson "
        ),
        "declaration": (
            "method:bernoulli method:bernoulli_ method:cauchy_ method:exponential_ "
            "method:geometric_ method:log_normal_ method:multinomial method:normal_ "
            "method:random_ method:uniform_ torch:_dirichlet_grad torch:_sample_dirichlet "
            "torch:_standard_gamma torch:_standard_gamma_grad torch:bernoulli torch:multinomial "
            "torch:poisson "
        ),
    },
    "gradcli.engine.einsum": {
        "function": (
            "ELLIPSIS einsum sumproduct_pair "
        ),
    },
    "gradcli.engine.ops.aten_aliases": {
        "declaration": (
            "method:get_device method:is_signed torch:alpha_dropout torch:alpha_dropout_ "
            "torch:bartlett_window torch:batch_norm torch:blackman_window torch:celu torch:celu_ "
            "torch:detach torch:detach_ torch:dropout torch:dropout_ torch:embedding "
            "torch:feature_alpha_dropout torch:feature_alpha_dropout_ torch:feature_dropout "
            "torch:feature_dropout_ torch:get_device torch:group_norm torch:hamming_window "
            "torch:hann_window torch:instance_norm torch:is_same_size torch:is_signed "
            "torch:kaiser_window torch:layer_norm torch:max_pool1d torch:max_pool2d "
            "torch:scalar_tensor torch:selu torch:selu_ torch:threshold torch:threshold_ "
        ),
    },
    "written back": {
        "declaration": (
            "method:abs_ method:absolute_ method:acos_ method:acosh_ method:add_ method:addbmm_ "
            "method:addcdiv_ method:addcmul_ method:addmm_ method:addmv_ method:addr_ "
            "method:arccos_ method:arccosh_ method:arcsin_ method:arcsinh_ method:arctan2_ "
            "method:arctan_ method:arctanh_ method:asin_ method:asinh_ method:atan2_ method:atan_ "
            "method:atanh_ method:baddbmm_ method:bitwise_and_ method:bitwise_left_shift_ "
            "method:bitwise_not_ method:bitwise_or_ method:bitwise_right_shift_ "
            "method:bitwise_xor_ method:ceil_ method:clamp_ method:clamp_max_ method:clamp_min_ "
            "method:clip_ method:copysign_ method:cos_ method:cosh_ method:cumprod_ "
            "method:cumsum_ method:deg2rad_ method:digamma_ method:div_ method:divide_ method:eq_ "
            "method:erf_ method:erfc_ method:erfinv_ method:exp2_ method:exp_ method:expm1_ "
            "method:fix_ method:float_power_ method:floor_ method:floor_divide_ method:fmod_ "
            "method:frac_ method:gcd_ method:ge_ method:greater_ method:greater_equal_ method:gt_ "
            "method:heaviside_ method:hypot_ method:i0_ method:igamma_ method:igammac_ "
            "method:index_add_ method:index_copy_ method:lcm_ method:le_ method:lerp_ "
            "method:less_ method:less_equal_ method:lgamma_ method:log10_ method:log1p_ "
            "method:log2_ method:log_ method:logical_and_ method:logical_not_ method:logical_or_ "
            "method:logical_xor_ method:logit_ method:lt_ method:mul_ method:multiply_ "
            "method:mvlgamma_ method:nan_to_num_ method:ne_ method:neg_ method:negative_ "
            "method:nextafter_ method:not_equal_ method:polygamma_ method:pow_ method:rad2deg_ "
            "method:reciprocal_ method:relu_ method:remainder_ method:renorm_ method:round_ "
            "method:rsqrt_ method:scatter_add_ method:sgn_ method:sigmoid_ method:sign_ "
            "method:sin_ method:sinc_ method:sinh_ method:sqrt_ method:square_ method:sub_ "
            "method:subtract_ method:tan_ method:tanh_ method:tril_ method:triu_ "
            "method:true_divide_ method:trunc_ method:xlogy_ torch:abs_ torch:acos_ torch:acosh_ "
            "torch:arccos_ torch:arccosh_ torch:arcsin_ torch:arcsinh_ torch:arctan_ "
            "torch:arctanh_ torch:asin_ torch:asinh_ torch:atan_ torch:atanh_ torch:ceil_ "
            "torch:clamp_ torch:clamp_max_ torch:clamp_min_ torch:clip_ torch:cos_ torch:cosh_ "
            "torch:deg2rad_ torch:erf_ torch:erfc_ torch:exp2_ torch:exp_ torch:expm1_ torch:fix_ "
            "torch:floor_ torch:frac_ torch:i0_ torch:log10_ torch:log1p_ torch:log2_ torch:log_ "
            "torch:logit_ torch:nan_to_num_ torch:neg_ torch:negative_ torch:rad2deg_ "
            "torch:reciprocal_ torch:relu_ torch:round_ torch:rsqrt_ torch:sigmoid_ torch:sin_ "
            "torch:sinc_ torch:sinh_ torch:sqrt_ torch:square_ torch:tan_ torch:tanh_ "
            "torch:trunc_ torch:xlogy_ "
        ),
    },
}
