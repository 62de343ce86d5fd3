// Keeps the algorithms library non-empty before any algorithm exists.
namespace dpl::algorithms { int library_anchor = 0; }
