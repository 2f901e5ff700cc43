#pragma once
// Moves at the scale of sites and stages (issue 23; core/MEMETIC.md, "Moves
// at the scale of sites"). The paper's moves shift one layer or one GPU at a
// time, so on pools of hundreds of GPUs over many sites a run that once
// spread its stages over the wrong sites cannot leave them: every single
// step out of the basin is worse. These moves change the plan's structure in
// one step and then give it the layer split that suits the new structure
// (balance_layers), so that the child competes at once.
//
// All work on a stage list in place (stages[0, count), count updated; the
// buffer holds at least min(N, L) + 1 stages), keep every device at most
// once, and return false, leaving the list as it was, when they do not
// apply. They evaluate nothing; the caller costs the result.
#include "search/memetic/chromosome.hpp"
#include "search/random.hpp"

namespace geotrain {

// Layer counts for the stages' devices as they stand that minimise the
// largest stage time (compute, tensor traffic, both sends, the head on the
// last stage) within each device's memory at this stage count; the layers a
// least largest time leaves over go from the devices slowest per layer.
// False (list unchanged) when the devices cannot hold the layers.
bool balance_layers(Stage* stages, int count, OperatorContext& context);

// A site whose stages lie in two runs or more (the pipeline leaves it and
// comes back) gets them in one run, where its largest run was, in their
// order; then balance_layers.
bool gather_site(Stage* stages, int count, Rng& rng, OperatorContext& context);

// A site the plan uses, uniformly, leaves it: its stages go, and the others
// are balanced. Needs two sites in the plan.
bool drop_site(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// A site the plan does not use, uniformly, joins it: its k fastest devices
// (k uniform in 1..min(its devices, L - Q, Q + 1)) as one run, placed at the
// boundary between runs (or an end) where the added round trips cost least;
// then balance_layers.
bool add_site(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// A site the plan uses and that has devices to spare, uniformly, gives it k
// more (its fastest unused; k uniform in 1..min(spare, L - Q, Q)), placed as
// add_site places a site: more, shorter stages where the plan already is.
bool grow_site(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// A site the plan uses, uniformly, hands its stages to another site with
// devices to spare, uniformly: its stages go and the other site gains as
// many of its fastest unused devices (as many as it has), placed as
// add_site places them. Drop and add (or grow) in one step: each alone is
// often worse than the plan both together improve on.
bool move_site(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// Fewer, longer stages: the k slowest devices per layer (k uniform in
// 1..Q / 2) leave, and the rest are balanced (more layers fit each device
// at the lower stage count).
bool contract_stages(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// Two neighbouring stages, uniformly, become one on the faster device of
// the two; then balance_layers.
bool merge_neighbours(Stage* stages, int& count, Rng& rng, OperatorContext& context);

// The same moves with their choice given (the restarts sweep them all):
// `site`'s runs gathered; `site` dropped; `k` of `site`'s fastest devices
// added (a site the plan does not use); the `k` slowest stages removed.
bool gather_site_at(Stage* stages, int count, int site, OperatorContext& context);
bool drop_site_at(Stage* stages, int& count, int site, OperatorContext& context);
bool add_site_at(Stage* stages, int& count, int site, int k, OperatorContext& context);
bool grow_site_at(Stage* stages, int& count, int site, int k, OperatorContext& context);  // any site
bool move_site_at(Stage* stages, int& count, int from, int to, int k, OperatorContext& context);
bool contract_by(Stage* stages, int& count, int k, OperatorContext& context);

}  // namespace geotrain
